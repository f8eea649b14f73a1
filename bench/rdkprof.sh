#!/usr/bin/env bash
# bench/rdkprof.sh — where prodlab's librdkafka driver spends more than a
# bare confluent-kafka-go loop: `perf record -F 2000` of `prodlab perf
# --client librdkafka` and of bench/rdkloop, the same records (RDKPROF_RECORDS,
# default 2,000,000 of 1 KiB, RDKPROF_WARMUP 200,000 warm-up), one broker on
# CPU 0 (started here), the client on CPU 1, each side twice in turn (the
# second run of each is kept); then samples by symbol and by thread into
# bench/out/rdkprof/{prodlab,rdkloop}.{sym,dso}. Needs perf and a built
# bin/prodlab (make build); bench/RESULTS.md §66 reads its output.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${RDKPROF_RECORDS:-2000000}; W=${RDKPROF_WARMUP:-200000}
OUT=bench/out/rdkprof; rm -rf "$OUT"; mkdir -p "$OUT"
go build -o "$OUT/benchtool" ./bench/benchtool
CGO_ENABLED=1 go build -tags librdkafka -o "$OUT/rdkloop" ./bench/rdkloop
PROPS=(acks=all linger.ms=5 batch.size=65536 enable.idempotence=true compression.type=none)
trap './bin/prodlab cluster down >/dev/null 2>&1 || true' EXIT
taskset -c 0 ./bin/prodlab cluster up --brokers 1 --kafka 4.4.0 >"$OUT/cluster.txt" 2>&1
BOOT=$(./bin/prodlab cluster status --bootstrap)
for side in prodlab rdkloop prodlab rdkloop; do
  T=rdkprof-$side-$(date +%s%N)
  "$OUT/benchtool" create-topic -bootstrap "$BOOT" -partitions 1 "$T"
  if [[ $side == prodlab ]]; then
    taskset -c 1 perf record -F 2000 -o "$OUT/$side.data" -- ./bin/prodlab perf --client librdkafka --bootstrap-server "$BOOT" \
      --topic "$T" --num-records "$N" --warmup-records "$W" --record-size 1024 --throughput -1 --producer-props "${PROPS[@]}" >"$OUT/$side.out" 2>&1
  else
    taskset -c 1 perf record -F 2000 -o "$OUT/$side.data" -- "$OUT/rdkloop" -bootstrap "$BOOT" -topic "$T" -records "$N" \
      -warmup-records "$W" -record-size 1024 -props "$(IFS=,; echo "${PROPS[*]}")" >"$OUT/$side.out" 2>&1
  fi
  "$OUT/benchtool" delete-topic -bootstrap "$BOOT" "$T"
done
for side in prodlab rdkloop; do
  perf report -i "$OUT/$side.data" --no-children --sort sym -n --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' >"$OUT/$side.sym"
  perf report -i "$OUT/$side.data" --no-children --sort comm,dso -n --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' >"$OUT/$side.dso"
done
echo "rdkprof: $OUT/{prodlab,rdkloop}.{sym,dso}"
