#!/bin/sh
# test_logs_pacing.sh: the pace and the failures of the log view: one
# request every 3 s while shown, none for the first seconds hidden (the
# background polls come every 15 s: test_logs_background.sh); a 429 and a
# hang keep the lines, say so (STALE, "no answer for") and keep the keys
# answered, and following resumes after each.  The view itself:
# test_logs.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/logs_lib.sh"

t_pacing() {
    keys G
    t0=$(date +%s.%N)
    n0=$(logreqs)
    sleep 9
    n1=$(logreqs)
    t1=$(date +%s.%N)
    # never more often than every 3 s over the window measured (a loaded
    # machine stretches the window and may slow the answers: at least 2)
    python3 -c 'import sys; d, t = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]); print("# get_endpoint_logs: %d requests in %.1f s while shown" % (d, t)); sys.exit(0 if 2 <= d <= t / 3 + 1.5 else 1)' \
        "$((n1 - n0))" "$t0" "$t1" || { fail "not paced at one request every 3 s"; return 1; }
    keys 1
    wait_for "Instances" 5 || return 1
    sleep 1
    n0=$(logreqs)
    sleep 5
    # hidden: the next poll comes 15 s after the last (the background rate)
    [ "$(logreqs)" = "$n0" ] || { fail "polled at the shown rate while hidden"; return 1; }
    keys 6
    wait_for "Logs:  llm-chat" 5 || return 1
    sim_expect "count('get_endpoint_logs') > $n0" true 5 || return 1
}

t_failures() {
    sim_fault /get_endpoint_logs 429 30
    wait_for "STALE:" 20 || return 1
    note "$(line_with "STALE:")"
    keys w
    wait_for "wrap" 3 || return 1       # keys answered
    screen | grep -q '^ \[20' || { fail "lines lost on 429"; return 1; }
    sim_post /__sim/fault '{"clear":true}'
    wait_for "following (every 3s)" 30 || return 1
    keys w
    sim_fault /get_endpoint_logs hang 1 10000
    wait_for "no answer for" 15 || return 1
    keys t
    wait_for "no time" 3 || return 1    # keys answered during the hang
    keys t
    wait_for "following (every 3s)" 20 || return 1
}

tap "L on an endpoint shows the simulator's log (the CLI's form, the key in its body)" t_open
tap "one request every 3 s while shown, not at that rate while hidden" t_pacing
tap "a 429 and a hang keep the lines and the keys" t_failures
e2e_done
