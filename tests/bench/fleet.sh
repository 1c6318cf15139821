#!/bin/sh
# tests/bench/fleet.sh BUILD_DIR N...: how soon the dashboard holds a whole
# fleet at the default pacing (1 list request of 25 a second, the live
# limit), for each N (instances, simulator seed 1).  Prints per N:
#   fleet_N_first_rows: ms from start until the first rows are on screen
#     (real time, the clock not moved);
#   fleet_N_complete: seconds until the first sweep is complete, the whole
#     table held (aims: 1,000 within 50 s, 10,000 within 510 s; the floor is
#     N/25 s);
#   fleet_N_requests: the list requests sent until then, and per instance
#     loaded (the floor is 1/25 = 0.04).
# Up to BENCH_FLEET_REAL_MAX instances (default 1,000) the run is in real
# time against the simulator's published limits (rate limits on, as the live
# service; any 429 it answered is said).  Larger fleets run on rentop's test
# clock (`--test-clock`), so that 10,000 take about 2 minutes instead
# of 8: the clock is moved BENCH_FLEET_STEP seconds (default 0.1)
# about every 10 ms; the pacing, the refresh cycles and the sweep ages all
# read that clock, and the simulator runs with --rate-limits off (its
# limiter counts real seconds, which the jumps compress).  A jump that
# passes the moment a request was due loses the rest of the step (the
# bucket holds one token): about STEP/2 per request, ~2 % at 0.1, so the
# clock figure is a little pessimistic; the request count is exact.
# BENCH_FLEET_REAL_MAX=10000 measures 10,000 in real time (~8 minutes).
# rentop writes the figures to its debug log when the first sweep is
# complete ("first sweep complete", src/poll/poller.c).
set -u
O=$(cd "${1:?usage: tests/bench/fleet.sh BUILD_DIR N...}" && pwd)
shift
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
: "${RENTOP:=$O/rentop}" "${RENTOP_SIM:=$O/rentop-sim}"
BUILD_DIR=$O E2E_SCALE=1
export BUILD_DIR RENTOP RENTOP_SIM SRCDIR E2E_SCALE
. "$SRCDIR/tests/e2e/lib.sh"
STEP=${BENCH_FLEET_STEP:-0.1}
status=0

# aim N: the aim for the first complete table of N, in seconds.
aim() {
    case $1 in
    1000) echo "aim < 50 s, floor 40 s" ;;
    10000) echo "aim < 510 s, floor 400 s" ;;
    *) echo "floor $(( $1 / 25 )) s" ;;
    esac
}

REAL_MAX=${BENCH_FLEET_REAL_MAX:-1000}
for N in "$@"; do
    real=0 limits=off clk=-t
    [ "$N" -le "$REAL_MAX" ] && real=1 limits=on clk=
    sim_start --seed 1 --instances "$N" --endpoints 0 --rate-limits "$limits" --quiet ||
        { echo "fleet: the simulator did not start" >&2; status=1; continue; }
    LOG=$E2E_TMP/rentop-$N.log
    rm -f "$LOG"
    T0=$(date +%s%N)
    # shellcheck disable=SC2086 # clk is a flag or nothing
    rentop_start $clk -s 160x40 --log "$LOG" || { status=1; continue; }
    if wait_for_re "Instances [0-9]+/$N" 10; then
        echo "fleet_${N}_first_rows: $(( ($(date +%s%N) - T0) / 1000000 )) ms (aim < 1000 ms; includes starting tmux)"
    else
        echo "fleet: no rows of $N on screen within 10 s" >&2; status=1
    fi
    # at most six times the floor and two minutes
    limit=$(( N / 25 * 6 + 120 ))
    if [ $real = 1 ]; then
        k=0
        while ! grep -q "first sweep complete" "$LOG" 2>/dev/null && [ $k -lt $limit ]; do
            sleep 1; k=$((k + 1))
        done
    else
        # the pipe held open: a step is a shell builtin's write, no fork
        exec 3>"$E2E_TMP/clock"
        k=0 steps=$(awk -v l="$limit" -v s="$STEP" 'BEGIN { printf "%d", l / s }')
        while [ $k -lt "$steps" ]; do
            printf '%s\n' "$STEP" >&3
            sleep 0.01
            k=$((k + 1))
            [ $((k % 20)) = 0 ] && grep -q "first sweep complete" "$LOG" 2>/dev/null && break
        done
        exec 3>&-
    fi
    line=$(grep "first sweep complete" "$LOG" 2>/dev/null | head -n 1)
    if [ -n "$line" ]; then
        # "instances: first sweep complete: R rows, Q list requests, S s"
        echo "$line" | awk -v n="$N" -v aim="$(aim "$N")" '{
            for (i = 1; i <= NF; i++) {
                if ($(i + 1) == "rows,") rows = $i
                if ($(i + 1) == "list") req = $i
                if ($(i + 1) == "s") secs = $i
            }
            printf "fleet_%d_complete: %.1f s (%s)\n", n, secs, aim
            printf "fleet_%d_requests: %d list requests for %d rows, %.3f per instance loaded (floor 0.040)\n", n, req, rows, req / (rows ? rows : 1)
        }'
    else
        echo "fleet: the first sweep of $N was not complete in time" >&2; status=1
    fi
    if [ $real = 1 ]; then
        echo "fleet_${N}_refused: $(sim_state_of id "sum(v['refused'] for v in d['rate_limits'].values())") requests answered 429 (real time, the published limits)"
    fi
    tm kill-server >/dev/null 2>&1
    kill "$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null; SIM_PID=
    rm -f "$E2E_TMP/sim.pid"
done
exit $status
