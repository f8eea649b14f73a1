#!/usr/bin/env bash
# bench/netem.sh — network-emulation benchmarks (part of make bench; also
# runnable alone). Writes bench/out/netem.md, which run.sh folds into
# bench/RESULTS.md.
#
#   5. proxy cost at rtt 0: one prodlab run with network.proxy {true, false}
#      as its matrix on an existing broker, many short rounds interleaved by
#      the lab; prodlab compare pairs them by round (paired t-test on the
#      log ratios). Target: the lower 99.9 % bound of proxied/direct
#      throughput ≥ 0.90 (cost at most 10 %, shown). Plus the proxy's CPU
#      per byte from netem's own benchmark.
#   6. in-flight scaling at rtt 100 ms: the inflight-rtt experiment with
#      rtt.ms=100, measured MB/s next to the pipe model's prediction.
#   7. the proxy's delay accuracy against an echo server (netem's own test,
#      verbose): measured round trip within ±(1 ms + 3 %) of 0..300 ms.
#
# Needs BOOT (a running broker, HOST:PORT) unless it starts one itself.
# Environment: BENCH_NETEM_RECORDS (records per trial of §5, default 100000),
# BENCH_PROXY_ROUNDS (rounds of §5, default 100).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/lib.sh
source bench/lib.sh
RECORDS=${BENCH_NETEM_RECORDS:-100000}
ROUNDS=${BENCH_PROXY_ROUNDS:-100}

# One prodlab run on the existing broker: network.proxy {true, false} as a
# matrix axis, so the lab interleaves the two paths (A B, B A, ...) after
# warm-up rounds. Single trials on this shared machine swing by ±25 % (an
# A/A run does too), so the run has many short rounds rather than a few long
# ones, and prodlab compare pairs the two trials of each round.
cat >"$OUT/proxy-cost.yaml" <<YAML
name: proxy-cost
workload: {records: $RECORDS, record.size: 1024, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5, batch.size: 65536, compression.type: none}
trials: $ROUNDS
warmup: 3
matrix:
  network.proxy: [true, false]
YAML
rm -rf "$OUT/proxy-cost"
COST_CMD="$PRODLAB run $OUT/proxy-cost.yaml --bootstrap $BOOT --out $OUT/proxy-cost"
echo "netem bench: proxy cost ($ROUNDS rounds of $RECORDS records, interleaved)" >&2
timeout 3600 $COST_CMD >"$OUT/proxy-cost.log" 2>&1
COST_TABLE=$("$PRODLAB" report "$OUT/proxy-cost" | cut -c1-110)
COMPARE_CMD="$PRODLAB compare $OUT/proxy-cost --scenarios network.proxy=false network.proxy=true --confidence 0.999"
COMPARE=$($COMPARE_CMD 2>&1 || true)
$COMPARE_CMD --format json >"$OUT/proxy-cost.compare.json"
COST=$(python3 - "$OUT/proxy-cost/results.jsonl" "$OUT/proxy-cost.compare.json" <<'PY'
import json, sys
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("warmup") or r["status"] != "ok":
        continue
    by.setdefault(r["trial"], {})[r["scenario"]["network.proxy"]] = r["throughput"]["records_per_s"]
ratios = sorted(v["true"] / v["false"] for v in by.values() if len(v) == 2)
q = lambda f: ratios[min(len(ratios) - 1, int(f * len(ratios)))]
v = json.load(open(sys.argv[2]))[0]["metrics"][0]["verdict"]
print("ROUNDS %d" % len(ratios))
print("QUART %.3f / %.3f / %.3f (min %.3f, max %.3f)" % (q(0.25), q(0.5), q(0.75), ratios[0], ratios[-1]))
print("RATIO %.3f" % (1 + v["diff"]))
print("LO %.3f" % (1 + v["diff_lo"]))
print("HI %.3f" % (1 + v["diff_hi"]))
PY
)
field() { sed -n "s/^$1 //p" <<<"$COST"; }
LO=$(field LO)
HI=$(field HI)
# The lab's rule, read off the interval: PASS when it lies at or above the
# target, FAIL when wholly below, INCONCLUSIVE when it straddles it.
VERDICT=$(awk -v lo="$LO" -v hi="$HI" 'BEGIN {print (lo >= 0.90) ? "**PASS**" : (hi < 0.90) ? "**FAIL**" : "**INCONCLUSIVE** (more rounds: BENCH_PROXY_ROUNDS)"}')

echo "netem bench: proxy CPU per byte" >&2
CPU_CMD="go test -run '^\$' -bench 'BenchmarkThroughput/(direct|proxy-rtt0-produce)' -count 5 ./internal/netem/"
CPU=$(go test -run '^$' -bench 'BenchmarkThroughput/(direct|proxy-rtt0-produce)' -count 5 ./internal/netem/ 2>&1 | grep '^Benchmark')
CPU_SUM=$(awk '/direct/ {d += $7; nd++} /produce/ {p += $7; np++} END {printf "direct %.2f ns/B, through the proxy %.2f ns/B: the proxy adds %.2f ns/B (means of %d runs)", d/nd, p/np, p/np - d/nd, nd}' <<<"$CPU")

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
  echo "One prodlab run on one broker: franz-go, $RECORDS records of 1 KB per trial, acks=all, linger.ms=5, 64 KiB batches; \`network.proxy: [true, false]\` as the matrix, so every round runs both paths back to back, alternating their order (A B, B A, ...), after three warm-up rounds. With --bootstrap the direct scenario connects to the broker itself and the proxied one through the netem proxy (no delay). Single trials here swing by ±25 % whichever path they take, so the run has $ROUNDS short rounds, and \`prodlab compare\` pairs the two trials of each round (paired t-test on the log ratios), which cancels what moved both."
  echo
  echo '```'; echo "$COST_CMD"; echo '```'
  echo
  echo '```'; echo "$COST_TABLE"; echo '```'
  echo
  echo "Per-round ratio proxied/direct over $(field ROUNDS) rounds, quartiles: $(field QUART)."
  echo
  echo "Geometric mean ratio proxied/direct: **$(field RATIO)**, 99.9 % confidence interval [$(field LO), $(field HI)]. Target: lower bound ≥ 0.90 (the proxy costs at most 10 %) $VERDICT."
  echo
  echo '```'; echo "$ $COMPARE_CMD"; echo "$COMPARE"; echo '```'
  echo
  echo "CPU per byte streamed (sender, proxy and sink in one process, 64 KiB produce frames, acks=0), from netem's benchmark: $CPU_SUM."
  echo
  echo '```'; echo "$ $CPU_CMD"; echo "$CPU"; echo '```'
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
