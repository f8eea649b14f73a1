#!/usr/bin/env bash
# bench/gaps-sweep.sh — the time each steady-state trial of every built-in
# study spends beyond its warm-up and window (issue "Decide at saturation":
# median ≤ 1 s across the built-in studies). Each study runs once with a
# short budget (its measured trials are the same trials as in a full run,
# only fewer), then benchtool gaps reads every results.jsonl and prints the
# median per study and over all trials together.
#
#   bench/gaps-sweep.sh [BUDGET]      # default 90s; run directories under ${GAPS_OUT:-/tmp/gaps-sweep}
#
# Studies without steady-state trials (batching, kip1269-safety: bursts)
# are left out; zone-outage runs one trial per arm (its windows are 12 s),
# kip1269 a 2-minute budget (one round of it takes 1m36s).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-90s}
out=${GAPS_OUT:-/tmp/gaps-sweep}
mkdir -p "$out"
files=()
for f in experiments/*.yaml; do
  name=$(basename "$f" .yaml)
  sets=()
  if grep -q '^capacity:' "$f"; then
    sets=(--set "capacity.budget=$budget")
  elif grep -q '^trials: auto' "$f"; then
    sets=(--set "budget=$budget")
  fi
  case "$name" in
    batching|kip1269-safety) continue ;;      # bursts: no window to end with
    zone-outage) sets=(--set trials=1) ;;
    kip1269) sets=(--set budget=2m) ;;        # one round of its 12 scenarios takes 1m36s
  esac
  rm -rf "${out:?}/$name"
  start=$(date +%s)
  ./bin/prodlab run "$name" "${sets[@]}" --out "$out/$name" >"$out/$name.log" 2>&1 || echo "$name: exit $? (see $out/$name.log)"
  echo "$name: $(( $(date +%s) - start )) s"
  [ -s "$out/$name/results.jsonl" ] && files+=("$out/$name/results.jsonl")
done
go run ./bench/benchtool gaps "${files[@]}"
go run ./bench/benchtool gaps-all "${files[@]}"
