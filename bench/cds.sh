#!/usr/bin/env bash
# bench/cds.sh — what the brokers' class-data archive (internal/cluster/
# cds.go) saves a broker start. Alternating starts of a 1-broker embedded
# cluster (`prodlab cluster up --brokers 1`, then down), with and without
# the archive, under the JVM's default compilers and under C1 only (the
# shared test tier's SHARED_JVM_OPTS); for each start the broker JVM's CPU
# (utime + stime from /proc/PID/stat, half a second after up returned)
# and up's wall time. "-Xshare:auto" in PRODLAB_BROKER_JVM_OPTS makes
# prodlab leave CDS to the user: the JVM then has only the JDK's own base
# archive. Writes bench/out/cds.md. Environment: BENCH_CDS_ROUNDS (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=bench/out # not bench/lib.sh: it starts a cluster of its own
mkdir -p "$OUT"
ROUNDS=${BENCH_CDS_ROUNDS:-5}
P=./bin/prodlab

# Two `prodlab perf` runs make the archive if there is none: the first
# one's broker writes its class list (kept when it stops by itself), the
# second cluster start dumps the archive from it.
for _ in 1 2; do
	$P perf --topic cds-warm --num-records 1000 --record-size 100 --throughput -1 --client franz-go >/dev/null
done

start() { # $1: label, $2: PRODLAB_BROKER_JVM_OPTS
	local s e pid cpu
	s=$(date +%s.%N)
	PRODLAB_BROKER_JVM_OPTS="$2" $P cluster up --brokers 1 >/dev/null
	e=$(date +%s.%N)
	sleep 0.5
	pid=$(pgrep -f 'kafka\.Kafka ' | head -1)
	cpu=$(awk '{printf "%.2f", ($14+$15)/100}' "/proc/$pid/stat")
	mapped=$(grep -c '/cds/.*\.jsa' "/proc/$pid/maps" || true)
	$P cluster down >/dev/null
	printf '%s\t%s\t%.2f\t%s\n' "$1" "$cpu" "$(echo "$e - $s" | bc)" "$mapped"
}

{
	echo "| start | broker CPU s | up s | .jsa mappings |"
	echo "|---|---:|---:|---:|"
	for r in $(seq "$ROUNDS"); do
		# Alternate which of each pair goes first, round by round.
		for c in C2 C1; do
			opts=""
			[ "$c" = C1 ] && opts="-XX:TieredStopAtLevel=1"
			if ((r % 2)); then
				start "$c, JDK archive only" "$opts -Xshare:auto"; start "$c, prodlab's archive" "$opts"
			else
				start "$c, prodlab's archive" "$opts"; start "$c, JDK archive only" "$opts -Xshare:auto"
			fi
		done
	done | awk -F'\t' '{print "| " $1 " | " $2 " | " $3 " | " $4 " |"}'
} | tee "$OUT/cds.md"

# Medians per kind of start, from the table.
awk -F' \\| ' 'NR > 2 { l = substr($1, 3); c[l] = c[l] " " $2; u[l] = u[l] " " $3 }
	END { for (l in c) { print l "\t" c[l] "\t" u[l] } }' "$OUT/cds.md" | sort | while IFS=$'\t' read -r l c u; do
	printf '%s: median broker CPU %s s, median up %s s\n' "$l" \
		"$(tr ' ' '\n' <<<"$c" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" \
		"$(tr ' ' '\n' <<<"$u" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
done | tee -a "$OUT/cds.md"
