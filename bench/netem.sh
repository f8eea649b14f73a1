#!/usr/bin/env bash
# bench/netem.sh — network-emulation benchmarks (part of make bench; also
# runnable alone). Writes bench/out/netem.md, which run.sh folds into
# bench/RESULTS.md.
#
#   5. proxy cost at rtt 0: one prodlab run with network.proxy {true, false}
#      as its matrix on an existing broker, trials interleaved by the lab;
#      median per-trial ratio of throughput; target ≥ 0.90 (≤ 10 % cost).
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

# One prodlab run on the existing broker: network.proxy {true, false} as a
# matrix axis, so the lab interleaves the two paths (A B, B A, ...) after a
# warm-up round, and prodlab compare judges the difference.
cat >"$OUT/proxy-cost.yaml" <<YAML
name: proxy-cost
workload: {records: $RECORDS, record.size: 1024, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5, batch.size: 65536, compression.type: none}
trials: $PAIRS
warmup: 1
matrix:
  network.proxy: [true, false]
YAML
rm -rf "$OUT/proxy-cost"
COST_CMD="$PRODLAB run $OUT/proxy-cost.yaml --bootstrap $BOOT --out $OUT/proxy-cost"
echo "netem bench: proxy cost ($PAIRS trials each, interleaved)" >&2
timeout 1800 $COST_CMD >"$OUT/proxy-cost.log" 2>&1
COST_TABLE=$("$PRODLAB" report "$OUT/proxy-cost" | cut -c1-110)
COMPARE_CMD="$PRODLAB compare $OUT/proxy-cost --scenarios network.proxy=false network.proxy=true"
COMPARE=$($COMPARE_CMD 2>&1 || true)
PER_TRIAL=$(python3 - "$OUT/proxy-cost/results.jsonl" <<'PY'
import json, sys
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("warmup") or r["status"] != "ok":
        continue
    by.setdefault(r["trial"], {})[r["scenario"]["network.proxy"]] = r["throughput"]["records_per_s"]
ratios = []
for t in sorted(by):
    p, d = by[t].get("true"), by[t].get("false")
    if p and d:
        ratios.append(p / d)
        print("| %d | %.0f | %.0f | %.4f |" % (t, p, d, p / d))
ratios.sort()
n = len(ratios)
med = ratios[n // 2] if n % 2 else (ratios[n // 2 - 1] + ratios[n // 2]) / 2
print("MEDIAN %.4f" % med)
PY
)
MEDIAN=$(sed -n 's/^MEDIAN //p' <<<"$PER_TRIAL")
PER_TRIAL=$(grep -v '^MEDIAN' <<<"$PER_TRIAL")
VERDICT=$(awk -v m="$MEDIAN" 'BEGIN {print (m >= 0.90) ? "**PASS**" : "**FAIL**"}')

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
  echo "One prodlab run on one broker: franz-go, $RECORDS records of 1 KB per trial, acks=all, linger.ms=5, 64 KiB batches; \`network.proxy: [true, false]\` as the matrix, so every trial round runs both paths back to back, alternating their order (A B, B A, ...), after one warm-up round. With --bootstrap the direct scenario connects to the broker itself and the proxied one through the netem proxy (no delay)."
  echo
  echo '```'; echo "$COST_CMD"; echo '```'
  echo
  echo '```'; echo "$COST_TABLE"; echo '```'
  echo
  echo "| trial | proxy rec/s | direct rec/s | ratio |"
  echo "|---:|---:|---:|---:|"
  echo "$PER_TRIAL"
  echo
  echo "Median per-trial ratio proxy/direct: **$MEDIAN** (target ≥ 0.90) $VERDICT."
  echo
  echo '```'; echo "$ $COMPARE_CMD"; echo "$COMPARE"; echo '```'
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
