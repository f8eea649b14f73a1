# bench/lib.sh — sourced by the section scripts (netem.sh, audit.sh) after
# they cd to the repository root: sets PRODLAB and OUT, and BOOT to a
# running broker, starting a 1-broker cluster (stopped on exit) when the
# caller (run.sh) did not pass one.
PRODLAB=./bin/prodlab
OUT=bench/out
mkdir -p "$OUT"
OWN_CLUSTER=0
if [[ -z ${BOOT:-} ]]; then
  BOOT=$("$PRODLAB" cluster up --brokers 1)
  OWN_CLUSTER=1
fi
cleanup() { if (( OWN_CLUSTER )); then "$PRODLAB" cluster down >&2 || true; fi; }
trap cleanup EXIT
