#!/usr/bin/env bash
# W1 and W1b exact: impactkit's CLI against PARI/GP running the same loop (benches/pari/*.gp),
# in one run on this machine. Needs `gp` (apt-get install pari-gp); not a dependency of
# impactkit or its tests. Prints the best of 5 wall-clock times of each whole process.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q
bin=target/release/impactkit
v0=$(python3 -c "print(';'.join('100,%d/200' % j for j in range(1, 201)))")
. benches/pari/best.sh
w1=$(best $bin corner --alpha "atan(1/1000)" --v0 "1000,1/2" --eps 99/100 --max-steps 1000 --form xieta --arith exact)
w1b=$(best $bin corner --alpha "atan(1/100)" --v0 "$v0" --eps 99/100 --form xieta --arith exact)
p1=$(best gp -q -s 100000000 benches/pari/w1.gp </dev/null)
p1b=$(best gp -q -s 100000000 benches/pari/w1b.gp </dev/null)
python3 - "$w1" "$w1b" "$p1" "$p1b" <<'PY'
import sys
w1, w1b, p1, p1b = map(float, sys.argv[1:])
print(f"W1   impactkit {w1:.3f} s   PARI/GP {p1:.3f} s   ratio {w1 / p1:.2f}")
print(f"W1b  impactkit {w1b:.3f} s   PARI/GP {p1b:.3f} s   ratio {w1b / p1b:.2f}")
PY
