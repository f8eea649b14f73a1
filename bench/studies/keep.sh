#!/usr/bin/env bash
# Keeps a built-in study's run as its record: the run's small files
# (findings, plan, environment, the resolved experiment, capacity and
# advice answers, the table) under bench/studies/NAME/, and record.json
# with the command that made it and its wall time. results.jsonl stays
# behind (megabytes); docs/studies.md is generated from what is kept
# (make studies-doc).
#
#   bench/studies/keep.sh RUN_DIR NAME "COMMAND" WALL_SECONDS ["NOTE"]
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 RUN_DIR NAME COMMAND WALL_SECONDS [NOTE]" >&2
  exit 2
fi
run=$1 name=$2 command=$3 wall=$4 note=${5:-}
dir=$(cd "$(dirname "$0")" && pwd)/$name
test -f "$run/findings.json" || { echo "$run has no findings.json: not a finished run" >&2; exit 2; }
mkdir -p "$dir"
for f in findings.json plan.json environment.json experiment.yaml capacity.json advice.json table.txt; do
  if [ -f "$run/$f" ]; then cp "$run/$f" "$dir/$f"; fi
done
esc() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }
{
  printf '{\n  "command": "%s",\n  "wall_s": %s' "$(esc "$command")" "$wall"
  if [ -n "$note" ]; then printf ',\n  "note": "%s"' "$(esc "$note")"; fi
  printf '\n}\n'
} > "$dir/record.json"
echo "kept $run as $dir"
