# corenet_lib.sh: shared by tests/integ/test_*.sh (sourced, not run).
# A private HOME, a simulator started from $RENTOP_SIM on a free port, its
# URL and full-access key parsed from its first lines, fault injection and
# request counts through its /__sim/ control API, TAP output, and cleanup.
# Needs only sh, sed, grep and curl.

: "${RENTOP:?RENTOP is not set (run through tests/run.sh)}"
: "${RENTOP_SIM:?RENTOP_SIM is not set (run through tests/run.sh)}"
T=$(mktemp -d /tmp/rentop-integ-XXXXXX)
export HOME="$T/home"
mkdir -p "$HOME"
unset VAST_API_KEY XDG_CONFIG_HOME VAST_URL NO_COLOR
FAILED=0
SIM_PID=

cleanup() {
    [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT INT TERM

ok()    { echo "ok - $1"; }
notok() { echo "not ok - $1"; FAILED=$((FAILED + 1)); shift; for l in "$@"; do echo "# $l"; done; }

# start_sim ARGS...: start the simulator; sets SIM_URL, SIM_KEY, SIM_RO_KEY, KEYFILE,
# SIM_OUT (its output).
start_sim() {
    [ -n "$SIM_PID" ] && stop_sim
    # a fresh file per start: the shell may open it after we first read it
    SIM_N=$((${SIM_N:-0} + 1))
    SIM_OUT="$T/sim$SIM_N.out"
    "$RENTOP_SIM" --port 0 --quiet "$@" >"$SIM_OUT" 2>"$T/sim.err" &
    SIM_PID=$!
    SIM_URL= SIM_KEY=
    i=0
    while [ $i -lt 200 ]; do
        SIM_URL=$(sed -n 's/^rentop-sim listening on //p' "$SIM_OUT" 2>/dev/null | head -n 1)
        SIM_KEY=$(sed -n 's/^full-access key: //p' "$SIM_OUT" 2>/dev/null | head -n 1)
        SIM_RO_KEY=$(sed -n 's/^read-only key: //p' "$SIM_OUT" 2>/dev/null | head -n 1)
        if [ -n "$SIM_URL" ] && [ -n "$SIM_KEY" ]; then
            KEYFILE="$T/key"
            (umask 077; printf '%s\n' "$SIM_KEY" >"$KEYFILE")
            return 0
        fi
        if ! kill -0 "$SIM_PID" 2>/dev/null; then break; fi
        sleep 0.05
        i=$((i + 1))
    done
    echo "# the simulator did not start:"; sed 's/^/#   /' "$T/sim.err" | head -n 10
    return 1
}

stop_sim() {
    kill "$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null; SIM_PID=
}

# fault PATH KIND COUNT [MS]: inject a fault for the next COUNT requests.
fault() {
    body="{\"path\":\"$1\",\"kind\":\"$2\",\"count\":$3"
    [ -n "${4:-}" ] && body="$body,\"ms\":$4"
    curl -fsS -X POST -H 'Content-Type: application/json' -d "$body}" "$SIM_URL/__sim/fault" >/dev/null
}

# requests PATH: how many requests the simulator saw on PATH (0 if none).
requests() {
    curl -fsS "$SIM_URL/__sim/state" | tr -d ' \n' |
        sed -n "s|.*\"$1\":{[^}]*\"count\":\([0-9]*\).*|\1|p" | head -n 1 | grep . || echo 0
}

# records FILE: how many top-level records a --dump --json array holds
# (jansson's indent of 2 puts their own keys at 4 spaces).
records() {
    grep -c '^    "id": ' "$1"
}

finish() {
    [ "$FAILED" -eq 0 ]
}
