#!/bin/sh
# test_bulk.sh: marked rows (issue 12): Space marks rows, the tab counts
# them; stop and destroy act on exactly the marked instances with one
# confirmation listing them and the rows whose state does not fit listed as
# skipped (one bulk request at the simulator); Cancel sends nothing;
# `:destroy-failed` destroys every failed instance once the count is typed;
# --read-only refuses a bulk action without a request.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off --instances 20 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 140x34 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running' and not x.get('is_bid')"

# mark ID: select the row of ID (through the filter) and mark it.
mark() { select_row "$1" || return 1; keys Space; sleep 0.3; keys Escape; sleep 0.2; }

# in_events TEXT: TEXT is in the event log (view 2); back to the table.
in_events() {
    keys 2; r=0
    wait_for "$1" "${2:-15}" || r=1
    keys 1; sleep 0.3
    return $r
}

# tap: each test starts on the table with no dialog, filter or mark.
tap() { note "at $(date +%s)"; keys Escape Escape; sleep 0.2; keys 1 U; sleep 0.2; e2e_tap "$@"; }

# nth_inst N COND: the id of the N-th instance (0-based, by id) matching COND.
nth_inst() {
    sim_state "([x['id'] for x in sorted(insts, key=lambda x: x['id']) if ($2)] + [None]*9)[$1]"
}

t_bulk_stop() {
    a=$(nth_inst 0 "$RUNNING") b=$(nth_inst 1 "$RUNNING") c=$(nth_inst 2 "$RUNNING")
    st=$(first_inst "x.get('intended_status') == 'stopped'")
    [ "$b" != null ] && [ "$st" != null ] || { fail "the seed lacks running/stopped rows"; return 1; }
    before=$(sim_state "sorted(x['id'] for x in insts if x.get('intended_status') == 'stopped')")
    bulk0=$(sim_state "d['requests'].get('/api/v0/instances/', {}).get('count', 0)")
    mark "$a" && mark "$b" && mark "$st" || return 1
    wait_for "3 marked" 10 || return 1
    keys s
    wait_for "Stop 2 marked instances" 10 || return 1
    wait_for_flat "Skipped (stop does not fit their state): $st (stopped)" 5 || return 1
    wait_for_flat "$a" 5 || return 1
    keys Tab Enter
    sim_expect "inst($a)['intended_status'] + inst($b)['intended_status']" stoppedstopped 15 || return 1
    # exactly the marked, fitting ones: the others keep their intended state
    want=$(sim_state "sorted(set($before) | {$a, $b})")
    sim_expect "sorted(x['id'] for x in insts if x.get('intended_status') == 'stopped')" "$want" 5 || return 1
    [ "$(inst_field "$c" intended_status)" = running ] || { fail "unmarked $c changed"; return 1; }
    # one bulk request, no per-row ones
    sim_expect "d['requests'].get('/api/v0/instances/', {}).get('count', 0) - $bulk0" 1 5 || return 1
    [ "$(sim_state "count('/api/v0/instances/$a/')")" = 0 ] || { fail "a per-row request went out"; return 1; }
    in_events "stop: done for 2 of 2 instances" || return 1
    in_events "stop marks: 2 acted on; the 1 skipped unmarked" || return 1
    # every mark the action looked at is used up: the skipped one too (said)
    wait_gone ", 1 marked" 10 || return 1
    not_on_screen ", 3 marked"
}

# A mark the filter hides is never acted on unasked (issue 21): with every
# mark hidden, D offers the selected row or the hidden marks; with some
# shown, the visible ones only or all; "Visible only" (a label here, so
# that the running rows stay for the next tests) leaves the hidden mark
# marked and says so.
t_hidden_marks() {
    a=$(nth_inst 0 "$RUNNING") b=$(nth_inst 1 "$RUNNING")
    [ "$b" != null ] || { fail "fewer than two running instances"; return 1; }
    w0=$(sim_state "writes()")
    mark "$a" || return 1
    select_row "$b" || return 1          # the filter now hides the marked row
    keys D
    wait_for "Every marked row (1) is hidden by the filter" 10 || return 1
    wait_for_flat "the selected instance $b only (s), or the 1 hidden marked row (m)" 5 || return 1
    not_on_screen "Destroy 1 marked instance" || return 1
    keys s                               # the selected row: the one-row question
    wait_for "Destroy instance $b" 10 || return 1
    keys Escape; sleep 0.3
    keys D
    wait_for "Every marked row (1)" 10 || return 1
    keys m                               # the hidden marks: named in the confirmation
    wait_for "Destroy 1 marked instance: $a" 10 || return 1
    keys Escape; sleep 0.3
    keys Escape; sleep 0.3               # the filter cleared
    mark "$b" || return 1
    wait_for "2 marked" 10 || return 1
    select_row "$b" || return 1          # $a hidden, $b shown
    keys D
    wait_for "1 marked row is hidden by the filter" 10 || return 1
    wait_for_flat "v: destroy the 1 visible marked row only; a: all 2 marked rows" 5 || return 1
    keys a
    wait_for "Destroy 2 marked instances" 10 || return 1
    keys Escape; sleep 0.3
    [ "$(sim_state "writes()")" = "$w0" ] || { fail "a request was sent without a confirmation"; return 1; }
    la=$(inst_field "$a" label)
    keys l
    wait_for "1 marked row is hidden by the filter" 10 || return 1
    keys v
    wait_for "New label for 1 marked instance: $b" 10 || return 1
    not_on_screen "$a (" || return 1
    type_text "hidden-test"; keys Enter
    sim_expect "inst($b)['label']" hidden-test 15 || return 1
    in_events "label marks: 1 acted on; 1 hidden by the filter still marked (U unmarks)" || return 1
    [ "$(inst_field "$a" label)" = "$la" ] || { fail "the hidden mark $a was acted on"; return 1; }
    keys Escape; sleep 0.3
    wait_for ", 1 marked" 10
}

t_bulk_cancel() {
    # the first two running now (the stop test stopped the first two it saw)
    a=$(nth_inst 0 "$RUNNING") b=$(nth_inst 1 "$RUNNING")
    w0=$(sim_state "writes()")
    [ "$b" != null ] || { fail "fewer than two running instances"; return 1; }
    mark "$a" && mark "$b" || return 1
    keys D
    wait_for "Destroy 2 marked instances" 10 || return 1
    wait_for_flat "permanently deletes" 5 || return 1
    keys Enter            # the dialog starts on Cancel
    wait_for "cancelled: nothing sent" 10 || return 1
    sleep 1
    [ "$(sim_state "writes()")" = "$w0" ] || { fail "a request was sent after Cancel"; return 1; }
    [ "$(sim_state "inst($a) is not None and inst($b) is not None")" = true ] || return 1
    on_screen "2 marked"
}

t_bulk_destroy() {
    # the first two running now (the stop test stopped the first two it saw)
    a=$(nth_inst 0 "$RUNNING") b=$(nth_inst 1 "$RUNNING")
    n0=$(sim_state "len(insts)")
    [ "$b" != null ] || { fail "fewer than two running instances"; return 1; }
    mark "$a" && mark "$b" || return 1
    keys D
    wait_for "Destroy 2 marked instances" 10 || return 1
    keys Tab Enter
    sim_expect "inst($a) is None and inst($b) is None" true 15 || return 1
    sim_expect "len(insts)" $((n0 - 2)) 5 || return 1
    in_events "destroy: done for 2 of 2 instances" || return 1
    wait_gone "marked" 10
}

# A bulk stop whose answer is lost (issue 21): sent once, then each of its
# instances is re-read and reported, as a single stop is.
t_bulk_lost() {
    up="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"
    a=$(nth_inst 0 "$up") b=$(nth_inst 1 "$up")
    [ "$b" != null ] || { fail "fewer than two running instances"; return 1; }
    p0=$(sim_state "d['requests'].get('/api/v0/instances/', {}).get('methods', {}).get('PUT', 0)")
    mark "$a" && mark "$b" || return 1
    sim_post /__sim/fault '{"path":"/api/v0/instances/","method":"PUT","kind":"truncated","count":1}' || return 1
    keys s
    wait_for "Stop 2 marked instances" 10 || return 1
    keys Tab Enter
    sim_expect "inst($a)['intended_status'] + inst($b)['intended_status']" stoppedstopped 15 || return 1
    keys 2
    wait_for "re-reading the 2 instances" 15 || return 1
    for id in $a $b; do
        wait_for_re "instance $id is [a-z]+: the stop took effect" 20 || return 1
    done
    keys 1; sleep 0.3
    sleep 1
    [ "$(sim_state "d['requests'].get('/api/v0/instances/', {}).get('methods', {}).get('PUT', 0)")" = $((p0 + 1)) ] ||
        { fail "the lost bulk stop was sent again"; return 1; }
}

FAILED="(x.get('actual_status') in ('created', 'offline', 'unknown')) or (x.get('actual_status') == 'exited' and x.get('intended_status') == 'running')"

t_destroy_failed() {
    nf=$(sim_state "len([x for x in insts if $FAILED])")
    n0=$(sim_state "len(insts)")
    [ "$nf" -gt 0 ] || { fail "no failed instance in the seed"; return 1; }
    keys : ; type_text "destroy-failed"; keys Enter
    wait_for "Type $nf to confirm" 10 || return 1
    type_text "$((nf + 1))"; keys Enter
    wait_for "type $nf (the number of instances)" 10 || return 1
    [ "$(sim_state "len(insts)")" = "$n0" ] || { fail "sent after a wrong count"; return 1; }
    keys C-u; type_text "$nf"; keys Enter
    sim_expect "len([x for x in insts if $FAILED])" 0 15 || return 1
    sim_expect "len(insts)" $((n0 - nf)) 5
}

t_readonly() {
    rentop_quit || return 1
    tm kill-server; sleep 0.3
    rentop_start -s 140x34 -k ro --read-only || return 1
    wait_for "READ-ONLY" 30 || return 1
    a=$(nth_inst 0 "x.get('intended_status') == 'running'")
    w0=$(sim_state "writes()")
    mark "$a" || return 1
    wait_for "1 marked" 10 || return 1
    keys D
    wait_for "read-only mode: destroy is disabled" 10 || return 1
    not_on_screen "[ Cancel ]" || return 1
    sleep 1
    [ "$(sim_state "writes()")" = "$w0" ] || { fail "a request was sent under --read-only"; return 1; }
    rentop_quit
}

tap "bulk stop: exactly the marked running rows, the stopped one skipped, one request" t_bulk_stop
tap "marks hidden by the filter: asked, never acted on unasked; visible only keeps them marked" t_hidden_marks
tap "bulk destroy cancelled: nothing sent" t_bulk_cancel
tap "bulk destroy confirmed: exactly the marked rows" t_bulk_destroy
tap "bulk stop with its answer lost: sent once, each instance re-read and reported" t_bulk_lost
tap ":destroy-failed: count typed, every failed instance destroyed" t_destroy_failed
tap "read-only: a bulk destroy is refused, nothing sent" t_readonly
e2e_done
