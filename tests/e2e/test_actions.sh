#!/bin/sh
# test_actions.sh: every instance action through the keyboard, each checked
# on screen and in the simulator's state: stop, start, label, destroy
# cancelled and confirmed, bid in range and out of range (refused before
# anything is sent), prepay; and a failed instance announced in the status bar.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 140x34 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"

# clear_filter: Escape twice (closes a dialog or view, then clears the filter).
clear_filter() { keys Escape; sleep 0.2; keys Escape; }

t_stop() {
    id=$(first_inst "$RUNNING and not x.get('is_bid')")
    [ "$id" != null ] || { fail "no running instance in the seed"; return 1; }
    select_row "$id" || return 1
    keys s
    wait_for "Stop instance $id" 10 || return 1
    wait_for_flat "disk charges continue" 5 || return 1
    keys Tab Enter
    sim_expect "inst($id)['intended_status']" stopped 15 || return 1
    wait_for_re "$id.*stopped" 20 || return 1
    clear_filter
}

t_start() {
    id=$(first_inst "x.get('intended_status') == 'stopped' and x.get('actual_status') in ('exited', 'stopped')")
    [ "$id" != null ] || { fail "no stopped instance in the seed"; return 1; }
    select_row "$id" || return 1
    keys S
    sim_expect "inst($id)['intended_status']" running 15 || return 1
    wait_for_re "$id.*(loading|running|starting|provisioning|pending)" 20 || return 1
    clear_filter
}

t_label() {
    id=$(first_inst "$RUNNING")
    select_row "$id" || return 1
    keys l
    wait_for "New label for instance $id" 10 || return 1
    keys C-u
    type_text "e2e-renamed-$id"
    keys Enter
    sim_expect "inst($id)['label']" "e2e-renamed-$id" 15 || return 1
    clear_filter
    wait_for "e2e-renamed-$id" 20
}

t_destroy_cancel() {
    id=$(first_inst "$RUNNING")
    select_row "$id" || return 1
    keys D
    wait_for "[ Cancel ]" 10 || return 1
    wait_for_flat "stops all billing" 5 || return 1
    wait_for_flat "deletes its disk" 5 || return 1
    keys Enter          # the dialog starts on Cancel
    wait_gone "[ Cancel ]" 10 || return 1
    sleep 1
    [ "$(sim_state "inst($id) is not None")" = true ] || { fail "instance $id was destroyed"; return 1; }
    [ "$(sim_state "count('/instances/$id')")" -ge 0 ] || return 1
    on_screen "$id" || return 1
    clear_filter
}

t_destroy_confirm() {
    id=$(first_inst "x.get('actual_status') in ('exited', 'offline', 'unknown', 'created')")
    [ "$id" != null ] || id=$(first_inst True)
    select_row "$id" || return 1
    keys D
    wait_for "Destroy instance $id" 10 || return 1
    keys Tab Enter
    sim_expect "inst($id) is None" true 15 || return 1
    clear_filter
    wait_gone "$id" 20
}

t_bid_in_range() {
    id=$(first_inst "x.get('is_bid') and x.get('actual_status') == 'running'")
    [ "$id" != null ] || id=$(first_inst "x.get('is_bid')")
    [ "$id" != null ] || { fail "no interruptible instance in the seed"; return 1; }
    # over min_bid, under the on-demand price: no second question
    p=$(sim_state "'%.3f' % ((inst($id)['min_bid'] + inst($id)['search']['gpuCostPerHour']) / 2)")
    select_row "$id" || return 1
    keys b
    wait_for_flat "32 per GPU" 10 || return 1
    keys C-u
    type_text "$p"
    keys Enter
    sim_expect "'%.3f' % float(inst($id)['dph_base'])" "$p" 15 || return 1
    clear_filter
}

t_bid_out_of_range() {
    id=$(first_inst "x.get('is_bid')")
    select_row "$id" || return 1
    before=$(sim_state "count('bid_price')")
    price=$(inst_field "$id" dph_base)
    keys b
    wait_for_flat "32 per GPU" 10 || return 1
    keys C-u
    type_text "999"
    keys Enter
    wait_for "out of range" 10 || return 1
    keys Escape
    sleep 1
    after=$(sim_state "count('bid_price')")
    [ "$before" = "$after" ] || { fail "bid requests went from $before to $after"; return 1; }
    [ "$(inst_field "$id" dph_base)" = "$price" ] || { fail "the bid changed"; return 1; }
    clear_filter
}

t_bid_on_demand_refused() {
    id=$(first_inst "$RUNNING and not x.get('is_bid')")
    select_row "$id" || return 1
    before=$(sim_state "count('bid_price')")
    keys b
    wait_for "instance $id is on-demand" 10 || return 1
    [ "$(sim_state "count('bid_price')")" = "$before" ] || { fail "a bid was sent for an on-demand instance"; return 1; }
    clear_filter
}

t_prepay() {
    id=$(first_inst "$RUNNING")
    paid0=$(sim_state "inst($id).get('credit_balance') or 0")
    select_row "$id" || return 1
    keys '$'
    wait_for "Prepay instance $id" 10 || return 1
    keys C-u
    type_text "50"
    keys Enter
    # the toast carries the service's answer: months covered and discount
    want=$(sim_state "'covers %.2f months at %.0f%% discount' % (50 / (inst($id)['dph_total'] * 720), 100 * min(0.4, 0.4 * 50 / (inst($id)['dph_total'] * 720) / 12))")
    wait_for_flat "prepaid \$50.00, $want" 20 || return 1
    sim_expect "round(inst($id)['credit_balance'] - $paid0, 2)" 50.0 15 || return 1
    clear_filter
}

t_failed_announced() {
    id=$(first_inst "$RUNNING")
    sim_post /__sim/instance "{\"id\":$id,\"actual_status\":\"offline\"}" || return 1
    keys r
    # the status bar line, not the table row
    wait_for_re "^ *instance $id .*is offline" 30 || return 1
    wait_for_re "^ *$id .*offline" 5
}

# each test starts with no dialog, view or filter left by the one before
tap() {
    keys Escape Escape Escape
    sleep 0.3
    e2e_tap "$@"
}

tap "s stops a running instance after confirming (screen and simulator)" t_stop
tap "S starts a stopped instance (screen and simulator)" t_start
tap "l sets a label (screen and simulator)" t_label
tap "D then Enter cancels: the dialog starts on Cancel and says billing stops and the disk is deleted" t_destroy_cancel
tap "D then Tab Enter destroys (gone from screen and simulator)" t_destroy_confirm
tap "b changes the bid of an interruptible instance (simulator shows the price)" t_bid_in_range
tap "b refuses a bid of 999 on screen and sends nothing" t_bid_out_of_range
tap "b is refused on an on-demand instance" t_bid_on_demand_refused
tap "\$ prepays and the toast reports months covered and discount" t_prepay
tap "an instance forced offline is announced in the status bar" t_failed_announced
t_event_log() {
    keys 2
    wait_for "destroyed: all billing stopped" 10 || return 1
    wait_for "prepaid \$50.00" 5 || return 1
    keys 1
    wait_for "$(first_inst True)" 10
}

tap "2 shows the event log with the actions' results" t_event_log
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
