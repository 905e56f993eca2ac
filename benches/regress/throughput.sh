#!/usr/bin/env bash
# regress at engine scale (issue 36): 10^6 records over 55 scenarios (benches/regress/gen.py)
# through `impactkit regress` with --jobs 1 and --jobs 2, text and JSON; prints wall time,
# records/s and peak memory (GNU time). Usage: benches/regress/throughput.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-1000000}
cargo build --release -q
dir=target/regress-bench
python3 benches/regress/gen.py "$n" "$dir"
f=$dir/records/run/records.jsonl
for jobs in 1 2; do
  for format in text json; do
    /usr/bin/time -f "%e %M" -o "$dir/time" target/release/impactkit regress "$f" --jobs "$jobs" --format "$format" >/dev/null || true
    read -r secs kib <"$dir/time"
    python3 -c "print(f'--jobs $jobs --format $format: $n records in {$secs:.1f} s = {$n / $secs:,.0f} records/s, peak {$kib / 1024:.0f} MiB')"
  done
done
