#!/bin/sh
# test_hang.sh: while the server hangs on the instance list, keys still answer
# at once (help opens, the selection moves), the header shows the STALE or
# OFFLINE marker, and once the server answers again the marker goes away.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 120x32 --refresh 2 --timeout 4 || { echo "not ok - rentop starts"; exit 1; }
FIRST=$(first_inst True)
SECOND=$(sim_state "sorted(x['id'] for x in insts)[1]")

t_keys_answer() {
    wait_for "$FIRST" 30 || return 1
    keys : ; type_text "sort id"; keys Enter
    # each request hangs 5 minutes (rentop gives up after --timeout 4)
    sim_fault /api/v1/instances/ hang 1000 300000 || return 1
    sim_fault /api/v0/instances/ hang 1000 300000 || return 1
    keys r
    sleep 1
    keys '?'
    # the hang lasts far longer than this wait
    wait_for "Help  (Esc" 10 || return 1
    keys Escape
    wait_gone "Help  (Esc" 10 || return 1
    keys : 
    type_text "events"
    keys Enter
    wait_gone "$FIRST" 10 || return 1
    keys 1
    wait_for "$FIRST" 10 || return 1
    # the selection moves: the second row's detail opens
    keys g j Enter
    wait_for "Instance $SECOND" 10 || return 1
    keys Escape
    wait_gone "Instance $SECOND" 10 || return 1
    # the fault was taken: a list request is hanging (or hung) meanwhile
    taken=$(sim_state "1000 - sum(f.get('count', 0) for f in d['faults'] if f.get('path') == '/api/v1/instances/')")
    [ "$taken" -gt 0 ] || { fail "no list request reached the hanging server"; return 1; }
}

t_stale_marker() {
    wait_for_re "STALE|OFFLINE" 40 || return 1
    wait_for "$FIRST" 5
}

t_recovers() {
    sim_post /__sim/reset '{}' || return 1
    keys r
    wait_gone "STALE" 40 || return 1
    wait_gone "OFFLINE" 10
}

tap "while the instance list hangs, help, view switches and the selection answer at once" t_keys_answer
tap "the STALE/OFFLINE marker appears while the server hangs" t_stale_marker
tap "the marker goes away when the server answers again" t_recovers
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
