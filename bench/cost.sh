#!/usr/bin/env bash
# bench/cost.sh — the lab's own cost, decided: each prodlab driver against a
# bare loop of the same client, on throughput and on CPU per MB.
#
#   java:       prodlab perf --client java       ÷ kafka-producer-perf-test (same kafka-clients)
#   javaloop:   prodlab perf --client java       ÷ bench/javaloop (a bare KafkaProducer loop, same
#               kafka-clients and JVM heap): the Java worker's own cost (perf-test pays its own
#               per-record work too)
#   franz-go:   prodlab perf --client franz-go   ÷ bench/kgoloop (a bare kgo loop)
#   kgolat:     prodlab perf --client franz-go   ÷ bench/kgoloop -latency (the bare loop that takes each
#               record's latency, as a latency-measuring loop must): prodlab's own work
#   latency:    bench/kgoloop -latency ÷ bench/kgoloop: what taking a latency a record costs
#   librdkafka: prodlab perf --client librdkafka ÷ bench/rdkloop (a bare confluent-kafka-go loop, same bundled librdkafka)
#   rdkopaque:  prodlab perf --client librdkafka ÷ bench/rdkloop -opaque (the bare loop that knows which record
#               each delivery report is for, as a latency-measuring loop must): prodlab's own work
#   opaque:     bench/rdkloop -opaque ÷ bench/rdkloop: what that correlation costs in confluent-kafka-go
#               (its per-message handle map), apart from prodlab
#   wrapper:    bench/rdkloop ÷ bench/rdkcloop (the same loop against librdkafka's C API, the same static library):
#               confluent-kafka-go's own cost, apart from librdkafka's
#   clib:       prodlab perf --client librdkafka ÷ bench/rdkcloop: what prodlab reports as librdkafka's, against
#               librdkafka itself
#
# Today's methods: ONE embedded broker on CPU 0 and every client on CPU 1
# (split CPUs: taskset; the broker inherits cluster up's affinity); each
# run on a fresh topic, after `sync` has written out the last run's log;
# steady-state figures (each side's line for the records after
# COST_WARMUP warm-up records, in the same client); pairs alternating their
# order (A B, B A, …) after one pair that is not counted (the broker's
# JVM warms on it), at least COST_PAIRS, then more until both ratios'
# 95 % intervals are within ±COST_PRECISION or COST_MAX_PAIRS ran (width
# only, never the verdict). Verdict against ±3 %: "equivalent" when the
# whole interval of A/B lies within [0.97, 1/0.97], else the ratio with its
# interval. CPU is user + system seconds of each side's whole process tree
# (bash's time: prodlab and its worker, or the bare loop), start-up
# included, per MB (2^20 bytes) of values produced, warm-up included.
#
# Output: bench/out/cost/cost.md (tables and verdicts) and its logs.
# Environment: COST_RECORDS (default 1000000), COST_WARMUP (200000),
# COST_PAIRS (6), COST_MAX_PAIRS (20), COST_PRECISION (0.015), COST_KAFKA
# (4.4.0), COST_ONLY (java|javaloop|franz|kgolat|latency|librdkafka|rdkopaque|opaque|clib|wrapper,
# default all ten).
# COST_PIPE_RTT=100ms is the pipe-bound mode: both sides reach the broker
# through prodlab's emulated link (`benchtool proxy`, a process of its own
# on the broker's CPU) with that round trip, so the link and not the CPU
# bounds the rate (with 64 KiB batches and 5 requests in flight, about
# 3 MB/s at 100 ms); records default to 60,000 (10,000 warm-up), and CPU
# per MB is judged against ±10 % (throughput still against ±3 %).
# COST_QUICK=1 is the mode `make bench` runs, at most 10 minutes: the three
# drivers' ratios against their bare loops (javaloop, franz and kgolat, librdkafka and rdkopaque) from 300,000 records (100,000
# warm-up) and 6 pairs each — intervals wider than the full run's, said so
# in the verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
PIPE_RTT=${COST_PIPE_RTT:-}
if [[ -n $PIPE_RTT ]]; then
  if ! [[ $PIPE_RTT =~ ^[0-9]+ms$ ]]; then echo "cost: COST_PIPE_RTT must be milliseconds like 100ms, got '$PIPE_RTT'" >&2; exit 2; fi
  : "${COST_RECORDS:=60000}" "${COST_WARMUP:=10000}"
fi
CPU_BOUND=3
[[ -n $PIPE_RTT ]] && CPU_BOUND=10
if [[ ${COST_QUICK:-} == 1 ]]; then
  : "${COST_RECORDS:=300000}" "${COST_WARMUP:=100000}" "${COST_PAIRS:=6}" "${COST_MAX_PAIRS:=6}" "${COST_ONLY:=javaloop franz kgolat librdkafka rdkopaque}"
fi
RECORDS=${COST_RECORDS:-1000000}
WARMUP=${COST_WARMUP:-200000}
PAIRS=${COST_PAIRS:-6}
MAX_PAIRS=${COST_MAX_PAIRS:-20}
PRECISION=${COST_PRECISION:-0.015}
KAFKA=${COST_KAFKA:-4.4.0}
ONLY=${COST_ONLY:-java javaloop franz kgolat latency librdkafka rdkopaque opaque clib wrapper}
SIZE=1024
RUN_TIMEOUT=600
for v in RECORDS WARMUP PAIRS MAX_PAIRS; do
  if ! [[ ${!v} =~ ^[0-9]+$ ]]; then echo "cost: $v must be a whole number, got '${!v}'" >&2; exit 2; fi
done
if (( WARMUP >= RECORDS || PAIRS < 2 || MAX_PAIRS > 50 )); then echo "cost: want COST_WARMUP < COST_RECORDS, COST_PAIRS ≥ 2, COST_MAX_PAIRS ≤ 50" >&2; exit 2; fi
(( MAX_PAIRS < PAIRS )) && MAX_PAIRS=$PAIRS
if (( $(nproc) < 2 )); then echo "cost: split CPUs need 2 CPUs" >&2; exit 2; fi
PROPS=(acks=all linger.ms=5 batch.size=65536 enable.idempotence=true compression.type=none)
JVM_HEAP=-Xmx512M
export PRODLAB_WORKER_JVM_OPTS="$JVM_HEAP"
BROKER_CPU=0 CLIENT_CPU=1

OUT=bench/out/cost; LOGS=$OUT/logs
rm -rf "$OUT"; mkdir -p "$LOGS"
PRODLAB=./bin/prodlab
go build -o "$OUT/benchtool" ./bench/benchtool
go build -o "$OUT/kgoloop" ./bench/kgoloop
CGO_ENABLED=1 go build -tags librdkafka -o "$OUT/rdkloop" ./bench/rdkloop
# rdkcloop links the librdkafka that confluent-kafka-go bundles (and rdkloop and the worker run).
RDK_VENDOR=$(go list -m -f '{{.Dir}}' github.com/confluentinc/confluent-kafka-go/v2)/kafka/librdkafka_vendor
cc -O2 -Wall -DLIBRDKAFKA_STATICLIB -I"$RDK_VENDOR" -o "$OUT/rdkcloop" bench/rdkcloop/rdkcloop.c \
  "$RDK_VENDOR/librdkafka_glibc_linux_$(go env GOARCH).a" -lm -ldl -lpthread -lrt
BENCHTOOL=$OUT/benchtool
TOOLS_CP=$("$BENCHTOOL" classpath "org.apache.kafka:kafka-tools:$KAFKA")
mkdir -p "$OUT/javaloop"
javac -cp "$TOOLS_CP" -d "$OUT/javaloop" bench/javaloop/JavaLoop.java

PROXY_PID=
cleanup() {
  if [[ -n $PROXY_PID ]]; then kill "$PROXY_PID" 2>/dev/null || true; wait "$PROXY_PID" 2>/dev/null || true; fi
  "$PRODLAB" cluster down >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$PRODLAB" cluster down >/dev/null 2>&1 || true
taskset -c "$BROKER_CPU" "$PRODLAB" cluster up --brokers 1 --kafka "$KAFKA" >"$LOGS/cluster.log" 2>&1
BOOT=$("$PRODLAB" cluster status --bootstrap)
echo "cost: broker on CPU $BROKER_CPU at $BOOT; clients on CPU $CLIENT_CPU" >&2
# CBOOT is where the sides bootstrap: the broker, or the emulated link in
# front of it (topics are made and dropped on the broker itself).
CBOOT=$BOOT
if [[ -n $PIPE_RTT ]]; then
  taskset -c "$BROKER_CPU" "$BENCHTOOL" proxy -target "$BOOT" -rtt "$PIPE_RTT" >"$LOGS/proxy.addr" 2>"$LOGS/proxy.log" &
  PROXY_PID=$!
  for _ in $(seq 50); do [[ -s $LOGS/proxy.addr ]] && break; sleep 0.1; done
  CBOOT=$(head -1 "$LOGS/proxy.addr")
  if [[ -z $CBOOT ]]; then echo "cost: the proxy did not start; see $LOGS/proxy.log" >&2; exit 1; fi
  echo "cost: sides reach the broker through an emulated $PIPE_RTT round trip at $CBOOT" >&2
fi

fresh_topic() { local t="cost-$1-$(date +%s%N)"; "$BENCHTOOL" create-topic -bootstrap "$BOOT" -partitions 1 "$t" >&2; echo "$t"; }
drop_topic() { "$BENCHTOOL" delete-topic -bootstrap "$BOOT" "$1" >&2 || true; }

# run_side LOG CMD...: one run on the client CPU; prints "RPS CPU_MS_PER_MB":
# the last perf-test-style line's records/sec (the steady-state one) and
# the process tree's user + system time per MB produced.
run_side() {
  local log=$1; shift
  echo "\$ $*" >"$log"
  local tf; tf=$(mktemp)
  if ! { TIMEFORMAT='%U %S'; time timeout "$RUN_TIMEOUT" taskset -c "$CLIENT_CPU" "$@" >>"$log" 2>&1; } 2>"$tf"; then
    echo "cost: run failed; see $log" >&2; tail -20 "$log" >&2; rm -f "$tf"; return 1
  fi
  local rps cpu
  rps=$(grep -E '^[0-9]+ (steady state )?records sent, [0-9.]+ records/sec' "$log" | tail -1 | awk '{for (i=1;i<=NF;i++) if ($i=="records/sec") print $(i-1)}')
  cpu=$(awk -v n="$RECORDS" -v s="$SIZE" '{printf "%.3f", ($1 + $2) * 1000 / (n * s / 1048576)}' "$tf")
  echo "cpu_s $(cat "$tf")" >>"$log"; rm -f "$tf"
  if [[ -z $rps ]]; then echo "cost: no final line in $log" >&2; return 1; fi
  echo "$rps $cpu"
}

side_prodlab_java() { run_side "$2" "$PRODLAB" perf --client java --bootstrap-server "$CBOOT" --topic "$1" --num-records "$RECORDS" --warmup-records "$WARMUP" --record-size "$SIZE" --throughput -1 --producer-props "${PROPS[@]}"; }
side_perftest() { run_side "$2" java "$JVM_HEAP" -cp "$TOOLS_CP" org.apache.kafka.tools.ProducerPerformance --topic "$1" --num-records "$RECORDS" --warmup-records "$WARMUP" --record-size "$SIZE" --throughput -1 --producer-props "bootstrap.servers=$CBOOT" "${PROPS[@]}"; }
side_javaloop() { run_side "$2" java "$JVM_HEAP" -cp "$TOOLS_CP:$OUT/javaloop" JavaLoop "$CBOOT" "$1" "$RECORDS" "$WARMUP" "$SIZE" "$(IFS=,; echo "${PROPS[*]}")"; }
side_prodlab_franz() { run_side "$2" "$PRODLAB" perf --client franz-go --bootstrap-server "$CBOOT" --topic "$1" --num-records "$RECORDS" --warmup-records "$WARMUP" --record-size "$SIZE" --throughput -1 --producer-props "${PROPS[@]}"; }
side_kgolat() { run_side "$2" "$OUT/kgoloop" -latency -bootstrap "$CBOOT" -topic "$1" -records "$RECORDS" -warmup-records "$WARMUP" -record-size "$SIZE"; }
side_kgoloop() { run_side "$2" "$OUT/kgoloop" -bootstrap "$CBOOT" -topic "$1" -records "$RECORDS" -warmup-records "$WARMUP" -record-size "$SIZE"; }
side_prodlab_librdkafka() { run_side "$2" "$PRODLAB" perf --client librdkafka --bootstrap-server "$CBOOT" --topic "$1" --num-records "$RECORDS" --warmup-records "$WARMUP" --record-size "$SIZE" --throughput -1 --producer-props "${PROPS[@]}"; }
side_rdkcloop() { run_side "$2" "$OUT/rdkcloop" "$CBOOT" "$1" "$RECORDS" "$WARMUP" "$SIZE" "$(IFS=,; echo "${PROPS[*]}")"; }
side_rdkopaque() { run_side "$2" "$OUT/rdkloop" -opaque -bootstrap "$CBOOT" -topic "$1" -records "$RECORDS" -warmup-records "$WARMUP" -record-size "$SIZE" -props "$(IFS=,; echo "${PROPS[*]}")"; }
side_rdkloop() { run_side "$2" "$OUT/rdkloop" -bootstrap "$CBOOT" -topic "$1" -records "$RECORDS" -warmup-records "$WARMUP" -record-size "$SIZE" -props "$(IFS=,; echo "${PROPS[*]}")"; }

# settled_side SIDE NAME: one run of side_SIDE on a fresh topic, after the
# broker has written out what the run before it left (sync: the kernel's
# dirty pages of the last run's gigabytes), and its topic dropped after:
# without it the second run of every pair ran at half the first's rate
# and dearer per MB, whichever side it was (bench/RESULTS.md §58).
settled_side() {
  local t; t=$(fresh_topic "$2") || return 1
  sync
  "side_$1" "$t" "$LOGS/$2.log" || { drop_topic "$t"; return 1; }
  drop_topic "$t"
}

precise() { "$BENCHTOOL" paired <"$1" 2>/dev/null | awk -v p="$PRECISION" '{exit !((($3 - $2) / 2 / $1) <= p)}'; }

# verdict BOUND RATIO LO HI WHAT A: the answer against ±BOUND %, for side A.
verdict() {
  awk -v b="$1" -v r="$2" -v lo="$3" -v hi="$4" -v w="$5" -v a="$6" 'BEGIN {
    f = 1 - b / 100
    if (lo >= f && hi <= 1/f) printf "**equivalent within ±%d %%** (%s ratio %.3f [%.3f, %.3f])", b, w, r, lo, hi
    else if (lo > 1) printf "**%s higher** by %+.1f %% [%+.1f %%, %+.1f %%] (%s)", a, (r-1)*100, (lo-1)*100, (hi-1)*100, w
    else if (hi < 1) printf "**%s lower** by %+.1f %% [%+.1f %%, %+.1f %%] (%s)", a, (r-1)*100, (lo-1)*100, (hi-1)*100, w
    else printf "**not shown either way**: %.3f [%.3f, %.3f] is wider than ±%d %% (%s)", r, lo, hi, b, w }'
}

# compare NAME A B: interleaved pairs; appends the section to cost.md.
compare() {
  local name=$1 a=$2 b=$3 i ta tb first ra rb
  local tput=$OUT/$name.tput cpu=$OUT/$name.cpu table=$OUT/$name.table
  : >"$tput"; : >"$cpu"
  printf '| pair | order | %s rec/s | %s rec/s | ratio | %s CPU ms/MB | %s CPU ms/MB | ratio |\n|---:|---|---:|---:|---:|---:|---:|---:|\n' "$a" "$b" "$a" "$b" >"$table"
  # One pair first that is not counted: the first runs after the broker
  # starts meet its JVM cold (the first side of the first pair ran at half
  # the rate and 30 % dearer per MB than every later run, bench/RESULTS.md
  # §65), which weighed on side A alone.
  settled_side "$a" "$name-0-a" >/dev/null || exit 1
  settled_side "$b" "$name-0-b" >/dev/null || exit 1
  for ((i = 1; i <= MAX_PAIRS; i++)); do
    if (( i > PAIRS )) && precise "$tput" && precise "$cpu"; then break; fi
    # $(...) does not inherit set -e: a failed side ends the script here.
    if (( i % 2 )); then
      first="A B"; ra=$(settled_side "$a" "$name-$i-a") || exit 1; rb=$(settled_side "$b" "$name-$i-b") || exit 1
    else
      first="B A"; rb=$(settled_side "$b" "$name-$i-b") || exit 1; ra=$(settled_side "$a" "$name-$i-a") || exit 1
    fi
    set -- $ra; local a_rps=$1 a_cpu=$2; set -- $rb; local b_rps=$1 b_cpu=$2
    echo "$a_rps $b_rps" >>"$tput"; echo "$a_cpu $b_cpu" >>"$cpu"
    awk -v i="$i" -v f="$first" -v ar="$a_rps" -v br="$b_rps" -v ac="$a_cpu" -v bc="$b_cpu" \
      'BEGIN {printf "| %d | %s | %.0f | %.0f | %.4f | %.1f | %.1f | %.4f |\n", i, f, ar, br, ar/br, ac, bc, ac/bc}' >>"$table"
    echo "cost: $name pair $i ($first): $a $a_rps rec/s $a_cpu ms/MB, $b $b_rps rec/s $b_cpu ms/MB" >&2
  done
  local t c
  t=$("$BENCHTOOL" paired <"$tput"); c=$("$BENCHTOOL" paired <"$cpu")
  {
    echo "### $name: $a ÷ $b"
    echo
    echo "Pairs: $(wc -l <"$tput"). Throughput: $(verdict 3 $t "throughput" "$a"). CPU per MB: $(verdict "$CPU_BOUND" $c "CPU per MB" "$a")."
    echo
    cat "$table"
    echo
  } >>"$OUT/cost.md"
}

{
  echo "Written by \`bench/cost.sh\` on $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(git rev-parse --short HEAD), with COST_RECORDS=$RECORDS COST_WARMUP=$WARMUP COST_PAIRS=$PAIRS COST_MAX_PAIRS=$MAX_PAIRS COST_PRECISION=$PRECISION, Kafka $KAFKA, one broker on CPU $BROKER_CPU, clients on CPU $CLIENT_CPU; producer properties \`${PROPS[*]}\`; records of $SIZE bytes to a fresh 1-partition topic per run${PIPE_RTT:+; both sides through an emulated $PIPE_RTT round trip (benchtool proxy on CPU $BROKER_CPU), CPU per MB judged against ±$CPU_BOUND %}."
  echo
} >"$OUT/cost.md"
for c in $ONLY; do
  case $c in
    java) compare java prodlab_java perftest ;;
    javaloop) compare javaloop prodlab_java javaloop ;;
    franz) compare franz prodlab_franz kgoloop ;;
    kgolat) compare kgolat prodlab_franz kgolat ;;
    latency) compare latency kgolat kgoloop ;;
    librdkafka) compare librdkafka prodlab_librdkafka rdkloop ;;
    rdkopaque) compare rdkopaque prodlab_librdkafka rdkopaque ;;
    opaque) compare opaque rdkopaque rdkloop ;;
    clib) compare clib prodlab_librdkafka rdkcloop ;;
    wrapper) compare wrapper rdkloop rdkcloop ;;
    *) echo "cost: unknown COST_ONLY entry $c" >&2; exit 2 ;;
  esac
done
cat "$OUT/cost.md"
