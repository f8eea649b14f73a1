#!/usr/bin/env bash
# docs/img/report.png: the first screen of report.html for the small real
# run kept in docs/img/run (bench/RESULTS.md says which run and command),
# rendered again by this prodlab (`prodlab report --html`) and photographed by
# headless Chromium (scripts/install-test-deps.sh installs Debian's).
# Run by `make screenshot`; nothing outlives it.
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:-docs/img/run}
out=${2:-docs/img/report.png}
chromium=${CHROMIUM:-/usr/bin/chromium}
test -x "$chromium" || { echo "$chromium not found: run scripts/install-test-deps.sh" >&2; exit 2; }
tmp=$(mktemp -d)
pgid=""
cleanup() {
  if [ -n "$pgid" ]; then kill -KILL -- "-$pgid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
cp -r "$run" "$tmp/run"
./bin/prodlab report "$tmp/run" --html > /dev/null
setsid "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1280,1500 \
  --screenshot="$PWD/$out" "file://$tmp/run/report.html" 2>"$tmp/chromium.log" &
pgid=$!
for _ in $(seq 600); do
  kill -0 "$pgid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pgid" 2>/dev/null; then echo "chromium did not finish within 60 s" >&2; exit 1; fi
wait "$pgid" || { cat "$tmp/chromium.log" >&2; exit 1; }
test -s "$out"
echo "wrote $out"
