#!/usr/bin/env bash
# bench/trogdor.sh — Trogdor benchmark (part of make bench; also runnable
# alone). Writes bench/out/trogdor.md, which run.sh folds into
# bench/RESULTS.md.
#
#   14. the same steady-state trial run directly and as a Trogdor task on
#       1, 2 and 3 agents of a local fleet, for the Java client, franz-go
#       and librdkafka (bench/trogdor.yaml.in), rounds interleaved and every
#       comparison paired by round, answered by prodlab itself: throughput
#       and client CPU per MB of the direct run, 2 and 3 agents, each
#       against one agent.
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
  echo "## 14. Trogdor: 1, 2 and 3 agents, and one agent against a direct run, for every client"
  echo
  echo '```'; echo "$CMD"; echo '```'
  echo
  echo "A local fleet (\`prodlab trogdor up --agents 3\`: trogdor 4.3.1, coordinator and agents on 127.0.0.1, on this same 2-core machine as the broker and prodlab) and bench/trogdor.yaml.in: 1 KB random records, acks=all, linger.ms=5, batch.size=64 KiB, 3 partitions, 3 s steady-state trials after 1 s of in-trial warm-up, one producer per agent, and the same trial run directly; each client (the Java client at the agents' kafka-clients, java@4.3.1; franz-go; librdkafka) on the agents through its own worker. Rounds interleave the twelve scenarios; each comparison is paired by round (prodlab's own answers, 95 %, equivalence margin ±5 %), on throughput and on client CPU per MB (the agents' worker processes: for the Java client the agent JVM's whole CPU, Trogdor's own included). Exit status $STATUS."
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

# The same fleet: a capacity search on 2 agents against the same search run
# directly (bench/trogdor-capacity.yaml.in).
CAP_BUDGET=${BENCH_TROGDOR_CAPACITY_BUDGET:-8m}
CAP_DIR=$OUT/trogdor-capacity
rm -rf "$CAP_DIR"
sed "s#@COORDINATOR@#$URL#g" bench/trogdor-capacity.yaml.in >"$OUT/trogdor-capacity.yaml"
CAP_CMD="$PRODLAB run $OUT/trogdor-capacity.yaml --bootstrap $BOOT --set capacity.budget=$CAP_BUDGET --out $CAP_DIR"
CAP_STATUS=0
timeout 3600 $CAP_CMD >"$OUT/trogdor-capacity.log" 2>&1 || CAP_STATUS=$?
{
  echo
  echo "### A capacity search on the fleet against the same search run directly"
  echo
  echo '```'; echo "$CAP_CMD"; echo '```'
  echo
  echo "bench/trogdor-capacity.yaml.in: the sustainable rate under p99 ≤ 50 ms (1 KB, acks=all, linger.ms=5, 3 partitions; 2 s windows after 1 s of warm-up; ±10 %), searched directly and on 2 agents (one producer each, the offered rate split over them, every node's warm-up held one window more), for java@4.3.1 and franz-go, the searches interleaved. Exit status $CAP_STATUS."
  echo
  echo '```'
  awk '/^Findings/ {on=1} on && /^prodlab:/ {exit} on' "$OUT/trogdor-capacity.log"
  echo '```'
} >>"$OUT/trogdor.md"
echo "trogdor bench: wrote $OUT/trogdor.md" >&2
