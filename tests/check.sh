#!/bin/sh
# `make check`: build everything with warnings as errors, run every suite on
# the release build plus a short libFuzzer run of every fuzz target
# (FUZZ_SECONDS, 8 s each here, from the corpus kept in tests/fuzz/corpus/),
# then the unit, contract and integration suites again under
# AddressSanitizer+UBSan with the end-to-end scripts of ASAN_E2E (the views,
# forms and parsers the scripts reach; logs and serverless run under TSan), and the unit and integration suites with
# the end-to-end scripts of TSAN_E2E (the ones that drive the poller and job
# threads hardest) under ThreadSanitizer.  The release run also runs the
# scripts of LIVE_E2E (tests/run.sh) a second time against rentop-sim
# --dialect live.  The sanitizer variants are built
# (at low priority) while the release tests run.  tests/run.sh runs TEST_JOBS
# tests side by side.  Ends with the line "N passed, N failed" and exits
# non-zero when anything failed.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
RESULTS=$(pwd)/build/check-results.tap
mkdir -p build; : >"$RESULTS"
export RESULTS
t0=$(date +%s)
export TEST_JOBS=${TEST_JOBS:-4} FUZZ_SECONDS=${FUZZ_SECONDS:-8}
ASAN_E2E=${ASAN_E2E:-"account account_apikeys bulk create events history hostile money offers process_terminal replace secret_guards table table_80x24 templates tfa_email workers account_billing"}
TSAN_E2E=${TSAN_E2E:-"actions atmostonce hang logs logs_pacing serverless signals"}

# stage NAME: the time of the stage that ends here, and the one that begins
STAGE= STAGE_T0=$t0 STAGES=
stage() {
    now=$(date +%s)
    if [ -n "$STAGE" ]; then
        echo "   ($STAGE: $((now - STAGE_T0)) s)"
        STAGES="$STAGES  $STAGE $((now - STAGE_T0))s"
    fi
    STAGE=$1 STAGE_T0=$now
}

build() {   # build VARIANT: every program and test binary of that variant
    stage "build $1"
    echo "== build ($1)"
    if ! $MAKE --no-print-directory -j"$JOBS" VARIANT="$1" WERROR=-Werror tests >build/build-$1.log 2>&1; then
        tail -n 40 build/build-$1.log
        echo "[build/$1] not ok - build of variant $1 failed (build/build-$1.log)" | tee -a "$RESULTS"
        return 1
    fi
    echo "[build/$1] ok - variant $1 builds with -Werror" | tee -a "$RESULTS"
}

if build release; then
    # the sanitizer builds (CPU) overlap the release tests (mostly waiting)
    ( nice -n 19 $MAKE --no-print-directory -j"$JOBS" VARIANT=asan WERROR=-Werror tests >build/build-asan.log 2>&1
      echo $? >build/build-asan.rc
      nice -n 19 $MAKE --no-print-directory -j"$JOBS" VARIANT=tsan WERROR=-Werror tests >build/build-tsan.log 2>&1
      echo $? >build/build-tsan.rc ) &
    early=$!
    stage "tests release (with the sanitizer builds beside)"
    echo "== tests (release)"
    LABEL=release sh tests/run.sh build/release layering unit contract integ e2e fuzz
    wait "$early"
fi
if build asan; then
    stage "tests asan"
    echo "== tests (asan+ubsan)"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ONLY_E2E=$ASAN_E2E LIVE_E2E= LABEL=asan sh tests/run.sh build/asan unit contract integ e2e
fi
if build tsan; then
    stage "tests tsan"
    echo "== tests (tsan)"
    # the simulator under test is the release one: TSan covers the client.
    RENTOP_SIM=$(pwd)/build/release/rentop-sim TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
        ONLY_E2E=$TSAN_E2E LIVE_E2E= LABEL=tsan sh tests/run.sh build/tsan unit integ e2e
fi

stage ""
passed=$(grep -cE '\] ok( |$)' "$RESULTS")
failed=$(grep -cE '\] not ok( |$)' "$RESULTS")
echo
echo "== check finished in $(( $(date +%s) - t0 ))s; results in $RESULTS"
echo "== stage times:$STAGES"
if [ "$failed" -gt 0 ]; then
    echo "failures:"; grep -E '\] not ok( |$)' "$RESULTS" | sed 's/^/  /'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
