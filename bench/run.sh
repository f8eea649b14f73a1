#!/usr/bin/env bash
# bench/run.sh — prodlab's benchmarks (make bench). Writes bench/RESULTS.md.
#
# Paired, interleaved comparisons on ONE embedded broker started once for the
# whole bench (prodlab cluster up; down in a trap). Each pair runs A and B
# back to back, alternating which goes first (A B, B A, A B, ...) so drift on
# this shared machine does not favour one side; the verdict is the median of
# the per-pair ratios A/B. Every run writes to a fresh topic, deleted after it.
#
#   1. prodlab perf --client java   vs  kafka-producer-perf-test (same release)  target ≥ 0.97×
#   2. prodlab perf --client franz-go vs a bare kgo produce loop (bench/kgoloop) target ≥ 0.97×
#   3. prodlab perf --client franz-go peak RSS over BENCH_RSS_RECORDS records    target ≤ 300 MB
#   4. the Go micro-benchmarks (raw go test -bench output, benchstat-friendly)
#   5-7. network emulation (bench/netem.sh): proxy cost at rtt 0, throughput
#      against in-flight at rtt 100 ms next to the pipe model, delay accuracy
#   8-9. delivery audit (bench/audit.sh): read-back speed, memory for 10M records
#   10-13. answers (bench/answers.sh): an A/A pair's resolving power in 5
#      minutes, a known effect's verdict, the time between trials, make run
#      cold and warm
#   14. Trogdor (bench/trogdor.sh): a trial on 1, 2, 3 agents of a local
#      fleet, and one agent against the same trial run directly
#   15. the lab's own cost (COST_QUICK=1 bench/cost.sh): prodlab's java,
#      franz-go and librdkafka drivers against bare loops of their clients,
#      throughput and CPU per MB on split CPUs, verdicts against ±3 %
#
# Environment: BENCH_RECORDS (records per run, default 1000000),
# BENCH_PAIRS (least pairs, default 11), BENCH_MAX_PAIRS (default 31),
# BENCH_PRECISION (stop adding pairs at this relative half-width, default
# 0.03), BENCH_RSS_RECORDS (default 10000000),
# BENCH_KAFKA (default 4.3.0), BENCH_RUN_TIMEOUT (seconds per run, default 1800),
# BENCH_PROXY_ROUNDS and BENCH_NETEM_RECORDS (see bench/netem.sh).
# Quick run: BENCH_RECORDS=100000 BENCH_PAIRS=3 BENCH_RSS_RECORDS=500000 BENCH_PROXY_ROUNDS=10 make bench
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/verdict.sh
source bench/verdict.sh

RECORDS=${BENCH_RECORDS:-1000000}
PAIRS=${BENCH_PAIRS:-11}
MAX_PAIRS=${BENCH_MAX_PAIRS:-31}
PRECISION=${BENCH_PRECISION:-0.03}
RSS_RECORDS=${BENCH_RSS_RECORDS:-10000000}
KAFKA=${BENCH_KAFKA:-4.3.0}
RUN_TIMEOUT=${BENCH_RUN_TIMEOUT:-1800}
SIZE=1024
TARGET_RATIO=0.97
TARGET_RSS_MB=300
# Producer settings shared by every side. compression.type=none is explicit
# because franz-go's default is snappy.
PROPS=(acks=all linger.ms=5 batch.size=65536)
FRANZ_PROPS=("${PROPS[@]}" compression.type=none)
# kafka-producer-perf-test's script gives its JVM -Xmx512M; prodlab's worker gets the same.
JVM_HEAP=-Xmx512M
export PRODLAB_WORKER_JVM_OPTS="$JVM_HEAP"

for v in RECORDS PAIRS MAX_PAIRS RSS_RECORDS RUN_TIMEOUT; do
  if ! [[ ${!v} =~ ^[0-9]+$ ]] || (( ${!v} < 1 )); then
    echo "bench: $v must be a positive integer, got '${!v}'" >&2; exit 2
  fi
done
if (( PAIRS > 50 || MAX_PAIRS > 50 )); then echo "bench: BENCH_PAIRS and BENCH_MAX_PAIRS are capped at 50" >&2; exit 2; fi
if (( MAX_PAIRS < PAIRS )); then MAX_PAIRS=$PAIRS; fi

OUT=bench/out
LOGS=$OUT/logs
RESULTS=bench/RESULTS.md
PRODLAB=./bin/prodlab
rm -rf "$LOGS"; mkdir -p "$LOGS"
go build -o "$OUT/benchtool" ./bench/benchtool
go build -o "$OUT/kgoloop" ./bench/kgoloop
BENCHTOOL=$OUT/benchtool
KGOLOOP=$OUT/kgoloop

echo "bench: resolving org.apache.kafka:kafka-tools:$KAFKA" >&2
TOOLS_CP=$("$BENCHTOOL" classpath "org.apache.kafka:kafka-tools:$KAFKA")

# 15. the lab's own cost (bench/cost.sh's quick mode, at most 10 minutes):
# each driver against a bare loop of its client, on throughput and CPU per
# MB, on split CPUs. It starts and stops its own broker, so it runs first.
echo "bench: the lab's own cost (COST_QUICK=1 bench/cost.sh)" >&2
COST_QUICK=1 ./bench/cost.sh >"$LOGS/cost.txt"

CLUSTER_DIR=$OUT/cluster
cleanup() {
  "$PRODLAB" cluster down >/dev/null 2>&1 || true
  rm -rf "$CLUSTER_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$CLUSTER_DIR"
BOOT=$("$PRODLAB" cluster up --brokers 1 --kafka "$KAFKA" --dir "$CLUSTER_DIR")
echo "bench: broker at $BOOT" >&2

# --- helpers -----------------------------------------------------------------

# fresh_topic NAME: creates a fresh 1-partition topic and prints its name.
fresh_topic() {
  local t="bench-$1-$(date +%s%N)"
  "$BENCHTOOL" create-topic -bootstrap "$BOOT" -partitions 1 "$t" >&2
  echo "$t"
}
drop_topic() { "$BENCHTOOL" delete-topic -bootstrap "$BOOT" "$1" >&2 || true; }

# rps LOG: records/sec of the final perf-test-style line in LOG.
rps() {
  grep -E '^[0-9]+ records sent, [0-9.]+ records/sec \([0-9.]+ MB/sec\), ([0-9.]+ ms avg latency, [0-9.]+ ms max latency, [0-9]+ ms 50th|[0-9.]+ s elapsed)' "$1" \
    | tail -1 | awk '{print $4}'
}

# median: of the numbers on stdin.
median() {
  sort -g | awk '{a[NR]=$1} END {if (NR == 0) {print "nan"} else if (NR % 2) {print a[(NR+1)/2]} else {printf "%.6f\n", (a[NR/2]+a[NR/2+1])/2}}'
}

# run_side LOG CMD...: runs one bounded measurement, output to LOG; prints records/sec.
run_side() {
  local log=$1; shift
  echo "\$ $*" >"$log"
  if ! timeout "$RUN_TIMEOUT" "$@" >>"$log" 2>&1; then
    echo "bench: run failed; see $log" >&2; tail -20 "$log" >&2; return 1
  fi
  local r; r=$(rps "$log")
  if [[ -z $r ]]; then echo "bench: no final line in $log" >&2; return 1; fi
  echo "$r"
}

# Each side is a function TOPIC LOG that prints records/sec.
side_prodlab_java() {
  run_side "$2" "$PRODLAB" perf --client java --bootstrap-server "$BOOT" --topic "$1" \
    --num-records "$RECORDS" --record-size "$SIZE" --throughput -1 --producer-props "${PROPS[@]}"
}
side_perftest() {
  run_side "$2" java "$JVM_HEAP" -cp "$TOOLS_CP" org.apache.kafka.tools.ProducerPerformance --topic "$1" \
    --num-records "$RECORDS" --record-size "$SIZE" --throughput -1 \
    --producer-props "bootstrap.servers=$BOOT" "${PROPS[@]}"
}
side_prodlab_franz() {
  run_side "$2" "$PRODLAB" perf --client franz-go --bootstrap-server "$BOOT" --topic "$1" \
    --num-records "$RECORDS" --record-size "$SIZE" --throughput -1 --producer-props "${FRANZ_PROPS[@]}"
}
side_kgoloop() {
  run_side "$2" "$KGOLOOP" -bootstrap "$BOOT" -topic "$1" -records "$RECORDS" -record-size "$SIZE"
}

# compare NAME SIDE_A SIDE_B: PAIRS interleaved pairs; appends a table to
# $NAME.md in $OUT and sets MEDIAN_RATIO and GEO_RATIO (the geometric mean
# ratio with its 99.9 % confidence interval, from prodlab's paired test).
compare() {
  local name=$1 a=$2 b=$3 i ra rb ta tb first
  local table=$OUT/$name.md ratios=$OUT/$name.ratios pairs=$OUT/$name.pairs
  : >"$ratios"; : >"$pairs"
  printf '| pair | order | %s rec/s | %s rec/s | ratio |\n|---:|---|---:|---:|---:|\n' "$a" "$b" >"$table"
  # At least PAIRS pairs, then more until the geometric mean's interval is
  # within ±PRECISION (its width only, never its verdict) or MAX_PAIRS.
  for ((i = 1; i <= MAX_PAIRS; i++)); do
    if (( i > PAIRS )) && precise "$pairs"; then break; fi
    ta=$(fresh_topic "$name-$i-a"); tb=$(fresh_topic "$name-$i-b")
    if (( i % 2 )); then
      first="A B"
      ra=$("side_$a" "$ta" "$LOGS/$name-$i-a.log"); drop_topic "$ta"
      rb=$("side_$b" "$tb" "$LOGS/$name-$i-b.log"); drop_topic "$tb"
    else
      first="B A"
      rb=$("side_$b" "$tb" "$LOGS/$name-$i-b.log"); drop_topic "$tb"
      ra=$("side_$a" "$ta" "$LOGS/$name-$i-a.log"); drop_topic "$ta"
    fi
    local ratio; ratio=$(awk -v a="$ra" -v b="$rb" 'BEGIN {printf "%.4f", a / b}')
    echo "$ratio" >>"$ratios"
    echo "$ra $rb" >>"$pairs"
    printf '| %d | %s | %.1f | %.1f | %s |\n' "$i" "$first" "$ra" "$rb" "$ratio" >>"$table"
    echo "bench: $name pair $i/$PAIRS ($first): $a $ra, $b $rb, ratio $ratio" >&2
  done
  MEDIAN_RATIO=$(median <"$ratios")
  GEO_RATIO=$("$BENCHTOOL" paired <"$pairs" | awk '{printf "%s [%s, %s]", $1, $2, $3}' || echo "n/a")
  GEO_LOHI=$("$BENCHTOOL" paired <"$pairs" | awk '{print $2, $3}' || echo "nan nan")
  NPAIRS=$(wc -l <"$pairs")
}

# precise PAIRS_FILE: the geometric mean ratio's interval is within
# ±PRECISION of it (relative half-width), as the lab's stopping rule.
precise() {
  "$BENCHTOOL" paired <"$1" 2>/dev/null | awk -v p="$PRECISION" '{exit !((($3 - $2) / 2 / $1) <= p)}'
}

# verdict LO HI TARGET: the four-outcome rule against a target ratio, on the
# interval, not the median: PASS when the whole interval is at or above the
# target, FAIL when it is wholly below, INCONCLUSIVE otherwise.
verdict() {
  awk -v lo="$1" -v hi="$2" -v t="$3" 'BEGIN {
    if (lo == "nan" || hi == "nan") print "**INCONCLUSIVE** (too few pairs)"
    else if (lo >= t) print "**PASS**"
    else if (hi < t) print "**FAIL**"
    else print "**INCONCLUSIVE**: the interval straddles the target" }'
}

# --- 1 and 2: paired comparisons ---------------------------------------------

compare java prodlab_java perftest
JAVA_MEDIAN=$MEDIAN_RATIO JAVA_GEO=$GEO_RATIO JAVA_LOHI=$GEO_LOHI JAVA_PAIRS=$NPAIRS
compare franz prodlab_franz kgoloop
FRANZ_MEDIAN=$MEDIAN_RATIO FRANZ_GEO=$GEO_RATIO FRANZ_LOHI=$GEO_LOHI FRANZ_PAIRS=$NPAIRS

# --- 3: peak RSS -------------------------------------------------------------

RSS_TOPIC=$(fresh_topic rss)
RSS_LOG=$LOGS/rss.log
RSS_CMD=(/usr/bin/time -v "$PRODLAB" perf --client franz-go --bootstrap-server "$BOOT" --topic "$RSS_TOPIC"
  --num-records "$RSS_RECORDS" --record-size "$SIZE" --throughput -1 --producer-props "${FRANZ_PROPS[@]}")
echo "bench: peak RSS over $RSS_RECORDS records" >&2
RSS_RPS=$(run_side "$RSS_LOG" "${RSS_CMD[@]}")
drop_topic "$RSS_TOPIC"
RSS_KB=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$RSS_LOG")
# No positive "Maximum resident set size" (a /usr/bin/time without -v
# support, a crash): RSS_MB stays empty and the verdict is FAIL, not 0.0 MB.
RSS_MB=$(awk -v k="$RSS_KB" 'BEGIN {if (k ~ /^[0-9]+$/ && k > 0) printf "%.1f", k / 1024}')
RSS_VERDICT=$(at_most "$RSS_MB" "$TARGET_RSS_MB")
RSS_MB=${RSS_MB:-"(missing)"}

# --- 4: Go micro-benchmarks --------------------------------------------------

echo "bench: Go micro-benchmarks" >&2
MICRO_CMD="go test -run XXX -bench . -benchtime 1s ./internal/netem/ ./internal/audit/ ./internal/payload/ ./internal/driver/"
timeout "$RUN_TIMEOUT" $MICRO_CMD >"$LOGS/micro.txt" 2>&1

# --- 5-7: network emulation --------------------------------------------------

BOOT="$BOOT" ./bench/netem.sh

# --- 8-9: delivery audit -----------------------------------------------------

BOOT="$BOOT" ./bench/audit.sh

# --- 10-13: answers ----------------------------------------------------------

BOOT="$BOOT" BENCHTOOL="$BENCHTOOL" ./bench/answers.sh

# --- 14: Trogdor ------------------------------------------------------------

BOOT="$BOOT" ./bench/trogdor.sh

# --- report ------------------------------------------------------------------

# comparison_section N TITLE NAME MEDIAN GEO A_DESC B_DESC: one paired
# comparison's part of RESULTS.md: both commands of pair 1, every pair, the
# median and the geometric mean with its interval.
comparison_section() {
  local n=$1 title=$2 name=$3 median=$4 geo=$5 a=$6 b=$7
  echo "## $n. $title"
  echo
  echo "A ($a), pair 1:"
  echo; echo '```'; cmd_line "$LOGS/$name-1-a.log"; echo '```'; echo
  echo "B ($b), pair 1:"
  echo; echo '```'; cmd_line "$LOGS/$name-1-b.log"; echo '```'; echo
  cat "$OUT/$name.md"
  echo
  echo "Median ratio: **$median**. Geometric mean ratio with its 95 % confidence interval (paired t-test on the log ratios): $geo."
  echo
}
cmd_line() { sed -n '1s/^\$ //p' "$1" | sed "s#$TOOLS_CP#<kafka-tools $KAFKA class path>#"; }
{
  echo "# prodlab benchmarks"
  echo
  echo "Written by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git describe --always --dirty 2>/dev/null || echo unknown), with: \`$(env | grep -E '^BENCH_' | sort | tr '\n' ' ')make bench\`."
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo) RAM, shared;"
  echo "$(go version | cut -d' ' -f3-4); $(java -version 2>&1 | head -1); Kafka $KAFKA, one embedded broker ($BOOT) for the whole bench."
  echo
  echo "Settings: BENCH_RECORDS=$RECORDS records of $SIZE bytes per run, BENCH_PAIRS=$PAIRS, BENCH_RSS_RECORDS=$RSS_RECORDS;"
  echo "producer properties \`${PROPS[*]}\` (franz-go also \`compression.type=none\`: its default is snappy);"
  echo "every run writes to a fresh 1-partition topic, deleted afterwards. JVMs: \`$JVM_HEAP\` (as kafka-producer-perf-test's script)."
  echo "Pairs alternate their order (A B, B A, ...): at least BENCH_PAIRS=$PAIRS, then more until the geometric mean ratio's 95 % interval (\`bench/benchtool paired\`, prodlab's paired t-test on the log ratios) is within ±$(awk -v p="$PRECISION" 'BEGIN {print p * 100}') % or BENCH_MAX_PAIRS=$MAX_PAIRS pairs ran (the stopping rule looks at the interval's width only). The verdict uses the same four outcomes as prodlab's: **PASS** when the whole interval is at or above the target, **FAIL** when it is wholly below, **INCONCLUSIVE** when it straddles the target; the median ratio is shown beside it."
  echo "Throughput is each tool's own final figure (records acknowledged / time from first send to last acknowledgement); JVM start-up is outside it on both sides."
  echo
  echo "| comparison | pairs | median ratio | geometric mean [95 % CI] | target | verdict |"
  echo "|---|---:|---:|---:|---:|---|"
  echo "| prodlab perf --client java / kafka-producer-perf-test | $JAVA_PAIRS | $JAVA_MEDIAN | $JAVA_GEO | ≥ $TARGET_RATIO | $(verdict $JAVA_LOHI "$TARGET_RATIO") |"
  echo "| prodlab perf --client franz-go / bare kgo loop | $FRANZ_PAIRS | $FRANZ_MEDIAN | $FRANZ_GEO | ≥ $TARGET_RATIO | $(verdict $FRANZ_LOHI "$TARGET_RATIO") |"
  echo "| prodlab perf --client franz-go peak RSS, $RSS_RECORDS records | $RSS_MB MB | | ≤ $TARGET_RSS_MB MB | $RSS_VERDICT |"
  echo
  comparison_section 1 "Java driver vs kafka-producer-perf-test" java "$JAVA_MEDIAN" "$JAVA_GEO" \
    "prodlab_java" "perftest (\`kafka-tools $KAFKA\` and its dependencies, resolved by \`bench/benchtool classpath\` into prodlab's Maven cache)"
  comparison_section 2 "franz-go driver vs a bare kgo produce loop" franz "$FRANZ_MEDIAN" "$FRANZ_GEO" \
    "prodlab_franz" "kgoloop, bench/kgoloop/main.go"
  echo "## 3. Peak RSS, franz-go"
  echo
  echo '```'; cmd_line "$RSS_LOG"; echo '```'
  echo
  echo "Maximum resident set size: $RSS_KB kB = **$RSS_MB MB** (target ≤ $TARGET_RSS_MB MB); $RSS_RPS records/s. Final line:"
  echo
  echo '```'; grep -E '^[0-9]+ records sent, [0-9.]+ records/sec .* 99\.9th\.$' "$RSS_LOG" | tail -1; echo '```'
  echo
  echo "## 4. Go micro-benchmarks"
  echo
  echo '```'; echo "$ $MICRO_CMD"; cat "$LOGS/micro.txt"; echo '```'
  echo
  cat "$OUT/netem.md"
  echo
  cat "$OUT/audit.md"
  echo
  cat "$OUT/answers.md"
  echo
  cat "$OUT/trogdor.md"
  echo
  echo "## 15. The lab's own cost: each driver against a bare loop of its client"
  echo
  echo '`COST_QUICK=1 bench/cost.sh` (at most 10 minutes; the full run, `bench/cost.sh`, decides with more pairs and records):'
  echo
  sed 's/^### /### 15. /' "$OUT/cost/cost.md"
} >"$RESULTS"
echo "bench: wrote $RESULTS" >&2
cat "$RESULTS" | sed -n '1,20p' >&2
