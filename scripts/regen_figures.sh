#!/usr/bin/env bash
# Regenerates every figure in docs/ with the shared figure style (src/figure.rs).
# Usage: bash scripts/regen_figures.sh   (from the repository root; builds the release binary)
set -euo pipefail
cargo build --release -q
B=target/release/impactkit
$B penny run --table circle --law elastic --impacts 20 --svg docs/penny-circle-elastic.png >/dev/null
$B penny run --table ellipse --law elastic --impacts 20 --svg docs/penny-ellipse-elastic.png >/dev/null
$B penny spread --law elastic --svg docs/penny-spread-ellipse.png >/dev/null
$B step --system examples/step/ball-gravity.toml --dt 1/20 --steps 40 --law inelastic --eps 7/10 --svg docs/step-ball-inelastic.svg >/dev/null
d=$(mktemp -d)
$B audit corner --alpha "atan(1/2)" --v0 "-1..1,-1..1" --eps 1/2 --grid 81x81 --max-steps 1000 --out "$d" >/dev/null
cp "$d/map.png" docs/audit-corner-atan-half.png
rm -rf "$d"
$B corner --alpha pi/6 --v0 "1,tan(pi/6)/2" --eps 1 --algorithm sa --arith quadratic --svg docs/corner-sa-pi6.svg >/dev/null
$B billiard-break --sweep 24 --arith interval --svg docs/billiard-fig5.svg >/dev/null
echo "figures regenerated in docs/"
