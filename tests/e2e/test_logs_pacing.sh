#!/bin/sh
# test_logs_pacing.sh: the pace and the failures of the log view: one
# request every 3 s while shown, none for the first seconds hidden (the
# background polls come every 15 s: test_logs_background.sh); a 429 and a
# hang keep the lines, say so (STALE, "no answer for") and keep the keys
# answered, and following resumes after each.  The view itself:
# test_logs.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/logs_lib.sh"

# jump_for N: N jumps of 1 s of rentop's clock, 0.25 s apart (real).
jump_for() {
    i=0
    while [ "$i" -lt "$1" ]; do
        clock_advance 1 || return 1
        sleep 0.25
        i=$((i + 1))
    done
}

t_pacing() {
    keys G
    t0=$(date +%s.%N)
    n0=$(logreqs)
    # 12 s of rentop's clock pass in about 3 real ones (the window's length
    # on rentop's clock: the real time plus the jumps)
    jump_for 12 || return 1
    sleep 0.5
    n1=$(logreqs)
    t1=$(date +%s.%N)
    # never more often than every 3 s over the window measured (a loaded
    # machine stretches the window and may slow the answers: at least 2)
    python3 -c 'import sys; d, t = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]) + 12; print("# get_endpoint_logs: %d requests in %.1f s (rentop clock) while shown" % (d, t)); sys.exit(0 if 2 <= d <= t / 3 + 1.5 else 1)' \
        "$((n1 - n0))" "$t0" "$t1" || { fail "not paced at one request every 3 s"; return 1; }
    keys 1
    wait_for "Instances" 5 || return 1
    sleep 1
    n0=$(logreqs)
    # hidden: the next poll comes 15 s after the last (the background rate):
    # 5 s pass on rentop's clock and a real second (the last poll up to 3 s
    # and the real seconds since the switch count too: keep under 15)
    clock_advance 5 || return 1
    sleep 1
    [ "$(logreqs)" = "$n0" ] || { fail "polled at the shown rate while hidden"; return 1; }
    keys 6
    wait_for "Logs:  llm-chat" 5 || return 1
    sim_expect "count('get_endpoint_logs') > $n0" true 5 || return 1
}

t_failures() {
    sim_fault /get_endpoint_logs 429 30
    clock_until 3 has "STALE:" || return 1
    note "$(line_with "STALE:")"
    keys w
    wait_for "wrap" 3 || return 1       # keys answered
    screen | grep -q '^ \[20' || { fail "lines lost on 429"; return 1; }
    sim_post /__sim/fault '{"clear":true}'
    clock_until 3 has "following (every 3s)" || return 1
    keys w
    sim_fault /get_endpoint_logs hang 1 10000
    # "no answer" after 8 s on rentop's clock; the hang is 10 real ones
    clock_until 3 has "no answer for" || return 1
    keys t
    wait_for "no time" 3 || return 1    # keys answered during the hang
    keys t
    wait_for "following (every 3s)" 20 || return 1
}

tap "L on an endpoint shows the simulator's log (the CLI's form, the key in its body)" t_open
tap "one request every 3 s while shown, not at that rate while hidden" t_pacing
tap "a 429 and a hang keep the lines and the keys" t_failures
e2e_done
