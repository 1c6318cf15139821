#!/bin/sh
# `make coverage`: build every program and test binary with gcov
# instrumentation (VARIANT=coverage: --coverage -O0, into build/coverage),
# run the unit, contract and integration suites (COVERAGE_SUITES) from it,
# then summarise with gcovr: line and branch coverage of every file of src/
# (printed, and build/coverage/summary.json), and an HTML report with the
# annotated sources in build/coverage/html/index.html.
#
# Only the client's core (src/) is counted: the contract suite runs the
# simulator alone, so it adds to tests/sim/'s counts and to none of src/'s;
# it is run so that the report of the simulator (gcovr -r . build/coverage)
# is there too.  The end-to-end scripts are left out (minutes, and rentop
# is often killed with its counts unwritten).  Not part of make check.
# Exits non-zero when a test failed (the figures are still printed).
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
O=build/coverage
SUITES=${COVERAGE_SUITES:-"unit contract integ"}
command -v gcovr >/dev/null 2>&1 || { echo "coverage: gcovr is missing (sh mk/deps.sh coverage)" >&2; exit 1; }

echo "== build (coverage)"
mkdir -p build
# warnings are make check's business (-Werror there); at -O0 gcc's
# format-truncation guesses differ from the optimised builds'
if ! $MAKE --no-print-directory -j"$JOBS" VARIANT=coverage WERROR= tests >build/build-coverage.log 2>&1; then
    tail -n 40 build/build-coverage.log
    echo "coverage: the build failed (build/build-coverage.log)" >&2
    exit 1
fi
# the counts of this run only
find "$O" -name '*.gcda' -delete
rm -f "$O/results.tap"

echo "== tests ($SUITES)"
# shellcheck disable=SC2086
LABEL=coverage sh tests/run.sh "$O" $SUITES >"$O/tests.log" 2>&1
passed=$(grep -cE '\] ok( |$)' "$O/results.tap")
failed=$(grep -cE '\] not ok( |$)' "$O/results.tap")
grep -E '\] not ok( |$)' "$O/results.tap"
echo "$passed passed, $failed failed (log: $O/tests.log)"

echo "== coverage of src/ (gcovr)"
rm -rf "$O/html"
mkdir -p "$O/html"
if ! gcovr --root . --filter 'src/' --exclude-unreachable-branches \
        --json-summary "$O/summary.json" \
        --html-details "$O/html/index.html" --html-title "rentop coverage (src/)" \
        "$O/obj" >"$O/gcovr.log" 2>&1; then
    cat "$O/gcovr.log" >&2
    exit 1
fi
python3 - "$O/summary.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def pct(c, t):
    return '%5.1f %%' % (100.0 * c / t) if t else '    - '
print('%-24s %17s %19s' % ('file', 'lines', 'branches'))
for f in sorted(d['files'], key=lambda f: f['filename']):
    print('%-24s %6d/%-5d %s %7d/%-5d %s' % (f['filename'], f['line_covered'], f['line_total'],
          pct(f['line_covered'], f['line_total']), f['branch_covered'], f['branch_total'],
          pct(f['branch_covered'], f['branch_total'])))
lc = sum(f['line_covered'] for f in d['files']); lt = sum(f['line_total'] for f in d['files'])
bc = sum(f['branch_covered'] for f in d['files']); bt = sum(f['branch_total'] for f in d['files'])
print('%-24s %6d/%-5d %s %7d/%-5d %s' % ('total', lc, lt, pct(lc, lt), bc, bt, pct(bc, bt)))
EOF
echo "HTML report: $O/html/index.html"
[ "$failed" -eq 0 ]
