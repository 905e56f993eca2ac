#!/usr/bin/env bash
# W4 (issue 34): the corner at alpha = pi/16 in Q(cos(pi/16)): impactkit's `algebraic`
# backend against PARI/GP running the same loop on Mod(polynomial, T_8) (benches/pari/w4.gp),
# in one run on this machine. Needs `gp` (apt-get install pari-gp); not a dependency of
# impactkit or its tests. Prints the best of 5 wall-clock times of each whole process and
# checks that both take the same 1,198 rule applications.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q
bin=target/release/impactkit
v0=$(python3 -c "print(';'.join('1/tan(pi/16),%d/200' % j for j in range(1, 201)))")
steps=$($bin corner --alpha "pi/16" --v0 "$v0" --eps 99/100 --form xieta --arith algebraic --format json |
  python3 -c "import json, sys; print(sum(r['steps'] for r in json.load(sys.stdin)['runs']))")
gp -q benches/pari/w4.gp </dev/null | grep -q "steps $steps\$" || { echo "step counts differ"; exit 1; }
. benches/pari/best.sh
w4=$(best $bin corner --alpha "pi/16" --v0 "$v0" --eps 99/100 --form xieta --arith algebraic)
p4=$(best gp -q benches/pari/w4.gp </dev/null)
python3 -c "print(f'W4   impactkit {$w4:.3f} s   PARI/GP {$p4:.3f} s   ratio {$w4 / $p4:.2f}   ($steps steps)')"
