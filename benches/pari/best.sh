# Sourced by the compare scripts: `best CMD…` prints the best wall time in seconds of 5
# runs of CMD (its output thrown away).
best() {
  local b=999
  for _ in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    b=$(python3 -c "print(min($b, $e - $s))")
  done
  echo "$b"
}
