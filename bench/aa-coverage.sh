#!/usr/bin/env bash
# bench/aa-coverage.sh — the stopping rule's coverage on this machine: N
# short A/A runs (bench/aa-duet.yaml, one scenario under two labels), each
# with its own budget; a run that ends "faster" or "slower" is a false
# claim. At 95 % at most 5 % should, plus the stopping rule's own slack
# (the issue "Decide at saturation" allows 10 %).
#
#   bench/aa-coverage.sh [RUNS] [BUDGET] [FILE] [--set ...]   # default: 20 2m bench/aa-duet.yaml
#
# Prints one line per run and a tally; run directories under
# ${AA_OUT:-/tmp/aa-coverage}.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
budget=${2:-2m}
file=${3:-bench/aa-duet.yaml}
shift $(( $# < 3 ? $# : 3 ))
out=${AA_OUT:-/tmp/aa-coverage}
mkdir -p "$out"
declare -A tally=()
for i in $(seq 1 "$runs"); do
  log="$out/run-$i.log"
  rm -rf "$out/run-$i"
  ./bin/prodlab run "$file" --set budget="$budget" "$@" --out "$out/run-$i" >"$log" 2>&1 || true
  line=$(grep -E '^   .* (is equivalent|is faster|is slower|is inconclusive|not enough)' "$log" | head -1 || true)
  case "$line" in
    *"is equivalent"*) v=equivalent ;;
    *"is faster"*) v=faster ;;
    *"is slower"*) v=slower ;;
    *"is inconclusive"*) v=inconclusive ;;
    *) v=failed ;;
  esac
  tally[$v]=$(( ${tally[$v]:-0} + 1 ))
  echo "run $i: $v:${line#*:}"
done
echo "tally over $runs runs (budget $budget, $file):"
for v in equivalent inconclusive faster slower failed; do
  echo "  $v ${tally[$v]:-0}"
done
claims=$(( ${tally[faster]:-0} + ${tally[slower]:-0} ))
echo "false claims (faster or slower): $claims of $runs"
