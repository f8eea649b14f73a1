#!/usr/bin/env bash
# bench/netem.sh — network-emulation benchmarks (part of make bench; also
# runnable alone). Writes bench/out/netem.md, which run.sh folds into
# bench/RESULTS.md.
#
#   5. proxy cost at rtt 0: prodlab run through the netem proxies
#      (network.proxy=true) vs direct, paired and interleaved, same broker,
#      median ratio of throughput; target ≥ 0.90 (the proxy costs ≤ 10 %).
#   6. in-flight scaling at rtt 100 ms: the inflight-rtt experiment with
#      rtt.ms=100, measured MB/s next to the pipe model's prediction.
#   7. the proxy's delay accuracy against an echo server (netem's own test,
#      verbose): measured round trip within ±(1 ms + 3 %) of 0..300 ms.
#
# Needs BOOT (a running broker, HOST:PORT) unless it starts one itself.
# Environment: BENCH_NETEM_RECORDS (default 300000), BENCH_PAIRS (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."

PRODLAB=./bin/prodlab
OUT=bench/out
mkdir -p "$OUT"
RECORDS=${BENCH_NETEM_RECORDS:-300000}
PAIRS=${BENCH_PAIRS:-5}
OWN_CLUSTER=0
if [[ -z ${BOOT:-} ]]; then
  BOOT=$("$PRODLAB" cluster up --brokers 1)
  OWN_CLUSTER=1
fi
cleanup() { if (( OWN_CLUSTER )); then "$PRODLAB" cluster down >&2 || true; fi; }
trap cleanup EXIT

# throughput DIR: the mean records/s of the run's only scenario.
throughput() {
  "$PRODLAB" report "$1" --format json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["records_per_s"]["mean"])'
}

# run_one PROXY DIR: one franz-go run of RECORDS 1 KB records, proxies on or off.
run_one() {
  timeout 900 "$PRODLAB" run "$OUT/proxy-cost.yaml" --bootstrap "$BOOT" --set "network.proxy=$1" --out "$2" >"$2.log" 2>&1
}

cat >"$OUT/proxy-cost.yaml" <<YAML
name: proxy-cost
workload: {records: $RECORDS, record.size: 1024, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5, batch.size: 65536, compression.type: none}
YAML

table=$OUT/proxy-cost.table
: >"$table"
ratios=()
for ((i = 1; i <= PAIRS; i++)); do
  a=$OUT/proxy-$i-on b=$OUT/proxy-$i-off
  rm -rf "$a" "$b"
  if (( i % 2 )); then order="proxy direct"; run_one true "$a"; run_one false "$b"
  else order="direct proxy"; run_one false "$b"; run_one true "$a"; fi
  ra=$(throughput "$a"); rb=$(throughput "$b")
  r=$(awk -v a="$ra" -v b="$rb" 'BEGIN {printf "%.4f", a / b}')
  ratios+=("$r")
  printf '| %d | %s | %.0f | %.0f | %s |\n' "$i" "$order" "$ra" "$rb" "$r" >>"$table"
  echo "netem bench: pair $i ($order): proxy $ra, direct $rb, ratio $r" >&2
done
MEDIAN=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
VERDICT=$(awk -v m="$MEDIAN" 'BEGIN {print (m >= 0.90) ? "**PASS**" : "**FAIL**"}')
GEOMEAN=$(printf '%s\n' "${ratios[@]}" | awk '{s += log($1)} END {printf "%.4f", exp(s / NR)}')

echo "netem bench: in-flight at rtt 100 ms" >&2
rm -rf "$OUT/inflight-100"
INFLIGHT_CMD="$PRODLAB run inflight-rtt --bootstrap $BOOT --set rtt.ms=100 --out $OUT/inflight-100"
timeout 1800 $INFLIGHT_CMD >"$OUT/inflight-100.log" 2>&1 || true
INFLIGHT=$("$PRODLAB" report "$OUT/inflight-100" --format json | python3 -c '
import json, sys
for s in json.load(sys.stdin):
    n = s.get("network") or {}
    model = n.get("model_mb_per_s", {}).get("mean")
    mbps = s["mb_per_s"]["mean"]
    label = s["values"]["max.in.flight.requests.per.connection"]
    ratio = mbps / model if model else float("nan")
    print("| %s | %.0f | %.2f | %.2f | %.2f |" % (label, n.get("max_in_flight", {}).get("mean", 0), mbps, model or 0, ratio))
')

echo "netem bench: delay accuracy" >&2
ACC_CMD="go test -count=1 -run TestDelayAccuracy -v ./internal/netem/"
ACC=$($ACC_CMD 2>&1 | grep -E 'rtt|PASS|FAIL|ok' | head -20)

{
  echo "## 5. netem proxy cost at rtt 0"
  echo
  echo "Paired, interleaved runs on one broker, franz-go, $RECORDS records of 1 KB, acks=all, linger.ms=5, 64 KiB batches; A goes through the netem proxy (\`network.proxy=true\`, no delay), B connects directly:"
  echo
  echo '```'; echo "$PRODLAB run bench/out/proxy-cost.yaml --bootstrap $BOOT --set network.proxy=true|false --out DIR"; echo '```'
  echo
  echo "| pair | order | proxy rec/s | direct rec/s | ratio |"
  echo "|---:|---|---:|---:|---:|"
  cat "$table"
  echo
  echo "Median ratio proxy/direct: **$MEDIAN** (target ≥ 0.90) $VERDICT; geometric mean of the ratios $GEOMEAN."
  echo
  echo "## 6. Throughput against in-flight requests at rtt 100 ms"
  echo
  echo '```'; echo "$INFLIGHT_CMD"; echo '```'
  echo
  echo "The model is min(bandwidth, in-flight × mean request bytes ÷ RTT) per broker connection, from the proxy's own request sizes."
  echo
  echo "| in-flight | max in flight seen | measured MB/s | model MB/s | measured/model |"
  echo "|---|---:|---:|---:|---:|"
  echo "$INFLIGHT"
  echo
  echo "## 7. Delay accuracy"
  echo
  echo '```'; echo "$ $ACC_CMD"; echo "$ACC"; echo '```'
} >"$OUT/netem.md"
echo "netem bench: wrote $OUT/netem.md" >&2
