#!/usr/bin/env bash
# W3 in one run: the plain C loop (benches/c/w3.c, -O2, no FMA contraction so that its
# results equal impactkit's bit for bit; and with -march=native, which contracts to FMA)
# against `impactkit audit corner --reference none` on 1 and 2 threads.
set -euo pipefail
cd "$(dirname "$0")/../.."
cc -O2 -ffp-contract=off -o /tmp/impactkit-w3 benches/c/w3.c -lm
cc -O2 -march=native -o /tmp/impactkit-w3-native benches/c/w3.c -lm
cargo build --release -q
best() { sort -g | tail -1; }
c=$(/tmp/impactkit-w3 | sed -E 's/.*: ([0-9.e+]+) per second.*/\1/' | best)
cn=$(/tmp/impactkit-w3-native | sed -E 's/.*: ([0-9.e+]+) per second.*/\1/' | best)
rate() {
  for _ in 1 2 3 4 5; do
    ./target/release/impactkit audit corner --alpha pi/16 --direction=-alpha..alpha --eps 0.9 \
      --algorithm sa --threshold 4.5e-16 --rest-threshold 1e-12 --max-steps 100000 \
      --grid 1000000 --reference none --timing --jobs "$1" --format json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["timing"]["steps_per_second"])'
  done | best
}
r1=$(rate 1)
r2=$(rate 2)
python3 - "$c" "$cn" "$r1" "$r2" <<'PY'
import sys
c, cn, r1, r2 = map(float, sys.argv[1:])
print(f"C loop (-O2, IEEE):          {c:.3e} rule applications/s")
print(f"C loop (-O2 -march=native):  {cn:.3e} rule applications/s")
print(f"impactkit audit, 1 thread:   {r1:.3e}  = {r1/c:.2f} x C (IEEE), {r1/cn:.2f} x C (native)")
print(f"impactkit audit, 2 threads:  {r2:.3e}  = {r2/r1:.2f} x one thread")
PY
