#!/bin/sh
# test_idle.sh: an idle dashboard sleeps.  With the whole (small) fleet listed
# and nothing due until the next refresh, the poller thread once looped
# without sleeping (the sweep had nothing to ask, yet its due time stayed in
# the past): 90% of a core for a screen that did not change.  Now it waits
# for the next cycle or an answer; the limit below is 100 times what it uses.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 120x40 || { echo "not ok - rentop starts"; exit 1; }

# cpu_ticks PID: user + system clock ticks the process has used so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

t_idle_sleeps() {
    wait_for "refreshed" "$(scaled 30)" || return 1
    sleep 3
    pid=$(rentop_pid)
    [ -n "$pid" ] || { fail "no rentop pid"; return 1; }
    hz=$(getconf CLK_TCK)
    a=$(cpu_ticks "$pid")
    sleep 10
    b=$(cpu_ticks "$pid")
    used=$((b - a))
    note "idle for 10 s: $used ticks ($hz a second)"
    # 10 s at 10% of a core; the spinning loop used 90%
    [ "$used" -lt "$hz" ] || fail "rentop used $used ticks in 10 s idle (limit $hz: it must sleep)"
}

t_still_refreshes() {
    # sleeping is not stopping: the next refresh (10 s) still comes
    t=$(screen | sed -n 's/.*refreshed \([0-9:]*\).*/\1/p' | head -n 1)
    i=0
    while [ $i -lt "$(scaled 25)" ]; do
        sleep 1; i=$((i + 1))
        now=$(screen | sed -n 's/.*refreshed \([0-9:]*\).*/\1/p' | head -n 1)
        [ -n "$now" ] && [ "$now" != "$t" ] && return 0
    done
    fail "the refreshed time stayed at $t for $i s"
}

tap "an idle dashboard sleeps (poller does not spin)" t_idle_sleeps
tap "an idle dashboard still refreshes on time" t_still_refreshes
e2e_done
