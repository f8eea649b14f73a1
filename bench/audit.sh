#!/usr/bin/env bash
# bench/audit.sh — delivery-audit benchmarks (part of make bench; also
# runnable alone). Writes bench/out/audit.md, which run.sh folds into
# bench/RESULTS.md.
#
#   8. read-back verification speed end to end: prodlab run with audit on,
#      2M records of 100 bytes over 3 partitions; target ≥ 500,000 records/s.
#   9. the checker's memory for 10M records (audit's own test); target ≤ 64 MB.
#
# Needs BOOT (a running broker, HOST:PORT) unless it starts one itself.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/lib.sh
source bench/lib.sh

rm -rf "$OUT/audit-speed"
SPEED_CMD="$PRODLAB run bench/audit-speed.yaml --bootstrap $BOOT --out $OUT/audit-speed"
timeout 900 $SPEED_CMD >"$OUT/audit-speed.log" 2>&1
LINE=$(grep -o 'read [0-9]* records in [0-9.]*s ([0-9]* records/s)' "$OUT/audit-speed.log" | head -1)
RATE=$(sed -E 's/.*\(([0-9]+) records\/s\).*/\1/' <<<"$LINE")
SPEED_VERDICT=$(awk -v r="$RATE" 'BEGIN {print (r >= 500000) ? "**PASS**" : "**FAIL**"}')
COUNTS=$(grep -o 'acked [0-9]*, lost [0-9]*, duplicates [0-9]*, reordered [0-9]*, phantom [0-9]*, foreign [0-9]*' "$OUT/audit-speed.log" | head -1)

MEM_CMD="go test -count=1 -run TestMemory10M -v ./internal/audit/"
MEM=$($MEM_CMD 2>&1 | grep -E 'holds|PASS|FAIL|ok' | head -5)
MB=$(grep -o 'holds [0-9.]* MB' <<<"$MEM" | awk '{print $2}')
MEM_VERDICT=$(awk -v m="$MB" 'BEGIN {print (m != "" && m <= 64) ? "**PASS**" : "**FAIL**"}')

{
  echo "## 8. Delivery audit: read-back speed"
  echo
  echo '```'; echo "$SPEED_CMD"; echo '```'
  echo
  echo "bench/audit-speed.yaml: 2,000,000 records of 100 bytes, 3 partitions, franz-go, audit on. The audit reads the topic back with a direct kgo consumer and checks every record's header:"
  echo
  echo "- $LINE → **$RATE records/s** (target ≥ 500,000) $SPEED_VERDICT"
  echo "- $COUNTS"
  echo
  echo "## 9. Delivery audit: memory for 10M records"
  echo
  echo '```'; echo "$ $MEM_CMD"; echo "$MEM"; echo '```'
  echo
  echo "**$MB MB** for 10,000,000 records (two bits per sequence number plus a high-water mark per producer and partition; target ≤ 64 MB) $MEM_VERDICT"
} >"$OUT/audit.md"
echo "audit bench: wrote $OUT/audit.md" >&2
