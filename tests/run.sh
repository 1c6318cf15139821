#!/bin/sh
# Run test suites from one build directory and print TAP-style result lines.
#
#   tests/run.sh BUILD_DIR [suite ...]      suites: layering unit contract integ e2e fuzz
#
# fuzz (not in the default list): every libFuzzer target for FUZZ_SECONDS
# (default 20) each, from the corpus in tests/fuzz/corpus/ (tests/fuzz/run.sh).
#
# Every test program or script prints "ok ..." / "not ok ..." lines (cmocka via
# CMOCKA_MESSAGE_OUTPUT=TAP; the shell suites by hand).  This script prefixes
# each with its suite, records a "not ok" for a program that dies without
# saying so, and appends everything to $RESULTS (default BUILD_DIR/results.tap).
# Environment given to every test: RENTOP, RENTOP_SIM, BUILD_DIR, SRCDIR.
set -u
O=${1:?usage: tests/run.sh BUILD_DIR [suite ...]}; shift
[ $# -gt 0 ] || set -- layering unit contract integ e2e
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
O=$(cd "$O" && pwd)
LABEL=${LABEL:-$(basename "$O")}
RESULTS=${RESULTS:-$O/results.tap}
LOGS=$O/test-logs
mkdir -p "$LOGS"
export RENTOP="${RENTOP:-$O/rentop}" RENTOP_SIM="${RENTOP_SIM:-$O/rentop-sim}" BUILD_DIR="$O" SRCDIR
export CMOCKA_MESSAGE_OUTPUT=TAP
TEST_TIMEOUT=${TEST_TIMEOUT:-600}

# run_one SUITE NAME CMD...: run CMD, keep its log, emit its ok/not ok lines.
run_one() {
    suite=$1 name=$2; shift 2
    log="$LOGS/$suite-$name.log"
    start=$(date +%s)
    timeout -k 10 "$TEST_TIMEOUT" "$@" >"$log" 2>&1 </dev/null
    rc=$?
    secs=$(( $(date +%s) - start ))
    oks=$(grep -cE '^ok( |$)' "$log")
    bad=$(grep -cE '^not ok( |$)' "$log")
    grep -E '^(not )?ok( |$)' "$log" | sed "s|^\(not \)*ok|&|; s|^|[$LABEL/$suite/$name] |" | tee -a "$RESULTS"
    if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
        echo "[$LABEL/$suite/$name] not ok - $name exited with status $rc (log: $log)" | tee -a "$RESULTS"
        tail -n 15 "$log" | sed 's/^/    # /'
    elif [ "$oks" -eq 0 ] && [ "$bad" -eq 0 ]; then
        echo "[$LABEL/$suite/$name] not ok - $name ran no test (log: $log)" | tee -a "$RESULTS"
    elif [ "$bad" -gt 0 ]; then
        grep -E '^#|^not ok' "$log" | head -n 30 | sed 's/^/    /'
    fi
    echo "    ($suite/$name: ${secs}s)"
}

for suite in "$@"; do
    case $suite in
    layering)
        if grep -rlE '#include *[<"](n?curses|ncursesw/|term\.h|panel\.h)' "$SRCDIR/src" >/dev/null 2>&1; then
            echo "[$LABEL/layering] not ok - src/ includes curses" | tee -a "$RESULTS"
        else
            echo "[$LABEL/layering] ok - src/ has no curses include" | tee -a "$RESULTS"
        fi ;;
    unit|contract)
        for bin in "$O/tests/$suite"/test_*; do
            [ -x "$bin" ] || continue
            run_one "$suite" "$(basename "$bin")" "$bin"
        done ;;
    integ)
        for sh in "$SRCDIR/tests/$suite"/test_*.sh; do
            [ -f "$sh" ] || continue
            run_one "$suite" "$(basename "$sh" .sh)" sh "$sh"
        done ;;
    e2e)
        # The scripts mostly wait (on tmux, the simulator's clock, refresh
        # intervals), so E2E_JOBS stripes of them run side by side (each has
        # its own tmux server, simulator port and temporary directory); the
        # output of each script is printed whole, in name order, at the end.
        jobs=${E2E_JOBS:-3}
        out=$LOGS/e2e-stripes; rm -rf "$out"; mkdir -p "$out"
        k=0
        for sh in "$SRCDIR/tests/e2e"/test_*.sh; do
            [ -f "$sh" ] || continue
            echo "$sh" >>"$out/stripe-$((k % jobs))"; k=$((k + 1))
        done
        for list in "$out"/stripe-*; do
            [ -f "$list" ] || continue
            ( while read -r sh; do
                  n=$(basename "$sh" .sh)
                  run_one e2e "$n" sh "$sh" >"$out/$n.out" 2>&1
              done <"$list" ) &
        done
        wait
        for sh in "$SRCDIR/tests/e2e"/test_*.sh; do
            n=$(basename "$sh" .sh)
            [ -f "$out/$n.out" ] && cat "$out/$n.out"
        done ;;
    fuzz)
        run_one fuzz targets env FUZZ_OUT="$O/fuzz" FUZZ_SECONDS="${FUZZ_SECONDS:-20}" \
            sh "$SRCDIR/tests/fuzz/run.sh" ;;
    *) echo "tests/run.sh: unknown suite $suite" >&2; exit 2 ;;
    esac
done
