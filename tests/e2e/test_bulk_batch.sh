#!/bin/sh
# test_bulk_batch.sh: bulk actions in the official CLI's batches (issue 20):
# vast-cli splits bulk start, stop and destroy into consecutive lists of at
# most 64 ids (split_list(ids, 64)), one request each.  A bulk stop of 70
# marked instances is 2 requests (64 + 6) with each outcome reported; a
# destroy whose first request's answer is lost sends that request once, not
# again, and still sends and reports the second.
. "$(dirname "$0")/lib.sh"

sim_start --seed 3 --quiet --rate-limits off --instances 90 --endpoints 0 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 150x40 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

# in_events TEXT: TEXT is in the event log (view 2); back to the table.
in_events() {
    keys 2; r=0
    wait_for "$1" "${2:-15}" || r=1
    keys 1; sleep 0.3
    return $r
}

# reqs METHOD: requests of METHOD the simulator served on the bulk path.
reqs() { sim_state "d['requests'].get('/api/v0/instances/', {}).get('methods', {}).get('$1', 0)"; }

# mark_first N: mark the first N rows the table shows (Space marks and moves down).
mark_first() {
    keys g; sleep 0.3
    i=0
    while [ $i -lt "$1" ]; do keys Space; i=$((i + 1)); done
    wait_for ", $1 marked" 15
}

t_stop_70() {
    n=$(sim_state "len([x for x in insts if x.get('intended_status') != 'stopped'])")
    [ "$n" -ge 70 ] || { fail "only $n instances can be stopped"; return 1; }
    # the whole list first (a sweep under way inserts rows under the cursor)
    wait_for "1 Instances 90 " 30 || return 1
    keys / ; type_text '!stopped'; keys Enter
    wait_for "1 Instances $n/90 " 10 || return 1
    p0=$(reqs PUT)
    mark_first 70 || return 1
    keys s
    wait_for "Stop 70 marked instances" 10 || return 1
    keys Tab Enter
    sim_expect "d['requests'].get('/api/v0/instances/', {}).get('methods', {}).get('PUT', 0) - $p0" 2 20 || return 1
    in_events "stop (request 1 of 2): done for 64 of 64 instances" || return 1
    in_events "stop (request 2 of 2): done for 6 of 6 instances" || return 1
    sleep 1
    [ "$(reqs PUT)" = "$((p0 + 2))" ] || { fail "more than 2 bulk requests: $(reqs PUT)"; return 1; }
    [ "$(sim_state "count('/api/v0/instances/9')")" = 0 ] || { fail "a per-row request went out"; return 1; }
    keys Escape; sleep 0.3
}

t_destroy_lost() {
    n0=$(sim_state "len(insts)")
    d0=$(reqs DELETE)
    mark_first 70 || return 1
    sim_post /__sim/fault '{"path":"/api/v0/instances/","method":"DELETE","kind":"lost","count":1}' || return 1
    keys D
    wait_for "Destroy 70 marked instances" 10 || return 1
    keys Tab Enter
    sim_expect "d['requests'].get('/api/v0/instances/', {}).get('methods', {}).get('DELETE', 0) - $d0" 2 30 || return 1
    in_events "(request 1 of 2): the answer was lost, the outcome is unknown" 20 || return 1
    in_events "destroy (request 2 of 2): done for 6 of 6 instances" 20 || return 1
    # the lost one was acted on once, never sent again
    sim_expect "len(insts)" $((n0 - 70)) 15 || return 1
    sleep 2
    [ "$(reqs DELETE)" = "$((d0 + 2))" ] || { fail "the lost request was sent again: $(reqs DELETE)"; return 1; }
}

tap "bulk stop of 70 marked instances: 2 requests (64 + 6), each reported" t_stop_70
tap "bulk destroy of 70, the first answer lost: 2 requests, not resent, both reported" t_destroy_lost
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
