#!/usr/bin/env bash
# bench/trogdor.sh — Trogdor benchmark (part of make bench; also runnable
# alone). Writes bench/out/trogdor.md, which run.sh folds into
# bench/RESULTS.md.
#
#   14. the same steady-state trial run directly (prodlab's Java worker) and
#       as a Trogdor task on 1, 2 and 3 agents of a local fleet
#       (bench/trogdor.yaml.in), rounds interleaved and every comparison
#       paired by round, answered by prodlab itself: the overhead of one
#       agent against the direct run, and what 2 and 3 agents add.
#
# Needs BOOT (a running broker, HOST:PORT) unless it starts one itself.
# BENCH_TROGDOR_BUDGET (default 10m) is the run's budget.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/lib.sh
source bench/lib.sh

BUDGET=${BENCH_TROGDOR_BUDGET:-10m}
FLEET_DIR=$OUT/trogdor-fleet
RUN_DIR=$OUT/trogdor
rm -rf "$FLEET_DIR" "$RUN_DIR"
URL=$("$PRODLAB" trogdor up --agents 3 --dir "$FLEET_DIR")
trap '"$PRODLAB" trogdor down >/dev/null 2>&1 || true; cleanup' EXIT
sed "s#@COORDINATOR@#$URL#g" bench/trogdor.yaml.in >"$OUT/trogdor.yaml"
CMD="$PRODLAB run $OUT/trogdor.yaml --bootstrap $BOOT --set budget=$BUDGET --out $RUN_DIR"
STATUS=0
timeout 3600 $CMD >"$OUT/trogdor.log" 2>&1 || STATUS=$?

{
  echo "## 14. Trogdor: 1, 2 and 3 agents, and one agent against a direct run"
  echo
  echo '```'; echo "$CMD"; echo '```'
  echo
  echo "A local fleet (\`prodlab trogdor up --agents 3\`: trogdor 4.3.1, coordinator and agents on 127.0.0.1, on this same 2-core machine as the broker and prodlab) and bench/trogdor.yaml.in: 1 KB random records, acks=all, linger.ms=5, batch.size=64 KiB, 3 partitions, 5 s steady-state trials after 1 s of in-trial warm-up, one producer per agent, and the same trial run directly by prodlab's Java worker with the agents' kafka-clients (java@4.3.1). Rounds interleave the four scenarios; each comparison is paired by round (prodlab's own answers, 95 %, equivalence margin ±5 %). Exit status $STATUS."
  echo
  echo '```'
  awk '/^SCENARIO/ {on=1} on && /^$/ {exit} on' "$OUT/trogdor.log"
  echo '```'
  echo
  echo '```'
  awk '/^Findings/ {on=1} on && /^prodlab:/ {exit} on' "$OUT/trogdor.log"
  echo '```'
  echo
  echo "On one 2-core machine the agents share the cores with the broker, so more agents measure this host's limits, not Trogdor's; on separate load hosts the same experiment (with --bootstrap to a real cluster) measures the fleet."
} >"$OUT/trogdor.md"
echo "trogdor bench: wrote $OUT/trogdor.md" >&2
