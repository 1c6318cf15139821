#!/bin/sh
# tests/bench/soak.sh BUILD_DIR: `make soak`.  The dashboard left running with
# 1,000 instances against rentop-sim at every default (rate limits on,
# refresh 10 s, paging at the published 1 request/s), its resident memory
# sampled every SOAK_EVERY_S (default 30) seconds for SOAK_S (default 1800:
# 30 minutes) seconds.  Prints each sample, then "soak_rss: first A MB at
# 2 min, last B MB, max C MB over N min" and fails when the memory after the
# first two minutes grew by more than SOAK_GROWTH_MB (default 3).  Too long
# for make check; run it on its own.
set -u
O=$(cd "${1:?usage: tests/bench/soak.sh BUILD_DIR}" && pwd)
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=$O RENTOP=$O/rentop RENTOP_SIM=$O/rentop-sim E2E_SCALE=1
export BUILD_DIR RENTOP RENTOP_SIM SRCDIR E2E_SCALE
. "$SRCDIR/tests/e2e/lib.sh"
SOAK_S=${SOAK_S:-1800}
EVERY=${SOAK_EVERY_S:-30}
GROWTH=${SOAK_GROWTH_MB:-3}

sim_start --seed 1 --instances 1000 --quiet || { echo "soak: the simulator did not start" >&2; exit 1; }
rentop_start -s 160x40 || { echo "soak: rentop did not start" >&2; exit 1; }
wait_for "refreshed" 60 || { echo "soak: no data" >&2; exit 1; }
pid=$(rentop_pid)
[ -n "$pid" ] || { echo "soak: no rentop pid" >&2; exit 1; }
t=0 base= max=0 last=0
while [ $t -le "$SOAK_S" ]; do
    kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || { echo "soak: rentop ended" >&2; exit 1; }
    mb=$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }')
    echo "soak_sample: ${t}s ${mb} MB"
    [ "$t" -ge 120 ] && [ -z "$base" ] && base=$mb
    last=$mb
    max=$(awk -v a="$max" -v b="$mb" 'BEGIN { print (b > a) ? b : a }')
    sleep "$EVERY"
    t=$((t + EVERY))
done
[ -n "$base" ] || base=$last
echo "soak_rss: first $base MB at 2 min, last $last MB, max $max MB over $((SOAK_S / 60)) min (1,000 instances, defaults)"
awk -v a="$base" -v b="$last" -v g="$GROWTH" 'BEGIN { exit (b - a > g) ? 1 : 0 }' || {
    echo "soak: resident memory grew by more than $GROWTH MB after the first two minutes" >&2; exit 1; }
