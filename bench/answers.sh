#!/usr/bin/env bash
# bench/answers.sh — does prodlab answer? (part of make bench; also runnable
# alone). Writes bench/out/answers.md, which run.sh folds into
# bench/RESULTS.md.
#
#  10. resolving power: an A/A experiment (one scenario under two labels)
#      with trials: auto and a BENCH_AA_BUDGET budget (default 5m): the
#      interval half-width it reached, and its verdict (equivalent, or
#      inconclusive with the rounds it still needs; never faster/slower
#      beyond its interval).
#  11. a known effect: max.in.flight.requests.per.connection 1 against 5 at
#      an emulated 20 ms round trip: the verdict must be "slower", with the
#      whole interval below 0.
#  12. time between trials outside the measurement (topic create,
#      readiness, delete, describe, driver start): median and maximum over
#      the runs above (benchtool gaps). Target: median ≤ 0.5 s.
#  13. make run's wall time, cold (an empty PRODLAB_CACHE: Kafka's jars
#      come from Maven Central) and warm.
#
# Needs BOOT (a running broker) unless it starts one itself. Environment:
# BENCH_AA_BUDGET (default 5m), BENCH_MAKE_RUN (0 skips §13).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
source bench/lib.sh
# shellcheck source=bench/verdict.sh
source bench/verdict.sh
AA_BUDGET=${BENCH_AA_BUDGET:-5m}
MAKE_RUN=${BENCH_MAKE_RUN:-1}
BENCHTOOL=${BENCHTOOL:-$OUT/benchtool}
[[ -x $BENCHTOOL ]] || go build -o "$BENCHTOOL" ./bench/benchtool

# verdict_of DIR A B: "kind|text|half-width %" of prodlab compare's
# throughput verdict, paired by round.
verdict_of() {
  "$PRODLAB" compare "$1" --scenarios "$2" "$3" --format json | python3 -c '
import json, sys
v = json.load(sys.stdin)[0]["metrics"][0]["verdict"]
hw = (v["diff_hi"] - v["diff_lo"]) / 2 * 100 if v["diff_lo"] is not None else float("nan")
print("%s|%s|%.1f" % (v["kind"], v["text"], hw))'
}

# --- 10: A/A ------------------------------------------------------------------
cat >"$OUT/aa.yaml" <<YAML
name: aa
description: A/A, one scenario under two labels, to measure the lab's resolving power
workload: {duration.s: 2, warmup.s: 0.5, record.size: 1024, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5, batch.size: 65536, compression.type: none, max.buffered.records: 20000}
warmup: auto
warmup.max.s: 60
trials: auto
precision: 0.02
budget: $AA_BUDGET
matrix:
  arm:
    - {label: a, linger.ms: 5}
    - {label: b, linger.ms: 5}
compare:
  - {axis: arm}
YAML
rm -rf "$OUT/aa"
AA_CMD="$PRODLAB run $OUT/aa.yaml --bootstrap $BOOT --out $OUT/aa"
echo "answers bench: A/A with a $AA_BUDGET budget" >&2
timeout 3600 $AA_CMD >"$OUT/aa.log" 2>&1
AA_ROUNDS=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if not json.loads(l).get("warmup")) // 2)' "$OUT/aa/results.jsonl")
IFS='|' read -r AA_KIND AA_TEXT AA_HW <<<"$(verdict_of "$OUT/aa" arm=a arm=b)"

# --- 11: a known effect ---------------------------------------------------------
rm -rf "$OUT/effect"
# The experiment of the integration test TestSureEffect, with longer trials.
EFFECT_CMD="$PRODLAB run internal/lab/testdata/effect.yaml --set workload.duration.s=2 --set workload.warmup.s=0.5 --set precision=0.05 --set budget=2m --bootstrap $BOOT --out $OUT/effect"
echo "answers bench: a known effect" >&2
timeout 1800 $EFFECT_CMD >"$OUT/effect.log" 2>&1
IFS='|' read -r EF_KIND EF_TEXT EF_HW <<<"$(verdict_of "$OUT/effect" max.in.flight.requests.per.connection=5 max.in.flight.requests.per.connection=1)"
EF_VERDICT=$([[ $EF_KIND == slower ]] && echo "**PASS**" || echo "**FAIL**")

# --- 12: gaps -------------------------------------------------------------------
GAPS=$("$BENCHTOOL" gaps "$OUT/aa/results.jsonl" "$OUT/effect/results.jsonl" | sed -E 's/ all=\[.*//')
# An empty median (benchtool printed none) is FAIL, not 0 ≤ 0.5.
GAP_MEDIAN=$("$BENCHTOOL" gaps "$OUT/aa/results.jsonl" | sed -nE 's/.*median=([0-9.]+).*/\1/p')
GAP_VERDICT=$(at_most "$GAP_MEDIAN" 0.5)
GAP_MEDIAN=${GAP_MEDIAN:-"(missing)"}

# --- 13: make run ---------------------------------------------------------------
MAKE_RUN_TEXT="skipped (BENCH_MAKE_RUN=0)"
if (( MAKE_RUN )); then
  COLD=$(mktemp -d)
  t0=$(date +%s.%N)
  PRODLAB_CACHE=$COLD timeout 3600 make run >"$OUT/make-run-cold.log" 2>&1 || echo "bench: cold make run failed; see $OUT/make-run-cold.log" >&2
  t1=$(date +%s.%N)
  rm -rf "$COLD"
  timeout 3600 make run >"$OUT/make-run-warm.log" 2>&1 || echo "bench: warm make run failed; see $OUT/make-run-warm.log" >&2
  t2=$(date +%s.%N)
  MAKE_RUN_TEXT=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {printf "cold (empty PRODLAB_CACHE) %.0f s, warm %.0f s", b - a, c - b}')
fi

{
  echo "## 10. Resolving power: an A/A experiment"
  echo
  echo '```'; echo "$AA_CMD"; echo '```'
  echo
  echo "One scenario listed twice under two labels (\`$OUT/aa.yaml\`: franz-go, 1 KB records, 2 s steady-state trials after 0.5 s of in-trial warm-up), trials: auto with precision ±2 % and a $AA_BUDGET budget. After $AA_ROUNDS rounds the paired interval's half-width is **±$AA_HW %**; verdict: **$AA_KIND** — $AA_TEXT."
  echo
  echo "## 11. A known effect: 1 against 5 requests in flight at rtt 20 ms"
  echo
  echo '```'; echo "$EFFECT_CMD"; echo '```'
  echo
  echo "Verdict: **$EF_KIND** — $EF_TEXT (half-width ±$EF_HW %). Target: slower, with the whole interval below 0: $EF_VERDICT."
  echo
  echo "## 12. Time between trials"
  echo
  echo "Time each trial spends outside its measurement (next trial's start − this start − elapsed − audit), from the runs of §10 and §11, \`bench/benchtool gaps\`:"
  echo
  echo '```'; echo "$GAPS"; echo '```'
  echo
  echo "Median (A/A run): **$GAP_MEDIAN s**; target ≤ 0.5 s: $GAP_VERDICT."
  echo
  echo "## 13. make run wall time"
  echo
  echo "\`make run\` (the batching experiment: 3-broker cluster, warm-up until settled, rounds until ±10 % within a 3-minute budget): $MAKE_RUN_TEXT."
  echo
} >"$OUT/answers.md"
echo "answers bench: wrote $OUT/answers.md" >&2
