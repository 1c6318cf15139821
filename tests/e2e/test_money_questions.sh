#!/bin/sh
# test_money_questions.sh: the questions before money moves on one instance
# (issue 21) and the documented bid range (issue 20), against rentop-sim
# with a manual clock:
# - right after an outbid, the bid dialog names the price that outbid it
#   (not "at or above min_bid") and says whether a typed bid beats it;
# - a bid above the instance's on-demand price (the record's
#   search.gpuCostPerHour) asks a second time, Cancel goes back as typed,
#   nothing is sent before the second yes; 40 $/h on a 2-GPU instance is in
#   the documented range (32 per GPU);
# - prepay on an instance in a failure state ("failed start", pull access
#   denied) asks first, naming the failure;
# - destroy states the prepaid credit the instance holds.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off --clock manual || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 150x36 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

tap() { note "at $(date +%s)"; keys Escape Escape Escape; sleep 0.3; keys 1; sleep 0.2; e2e_tap "$@"; }

# rate X: X as rentop prints a price ($0.450/h).
rate() { awk -v r="$1" 'BEGIN { printf "$%.3f/h", r }'; }

t_outbid_names_price() {
    sim_post /__sim/clock '{"advance":3700}' || return 1
    sim_expect "len([x for x in insts if x.get('is_bid') and 'Outbid' in (x.get('status_msg') or '')]) > 0" true 10 || return 1
    id=$(first_inst "x.get('is_bid') and 'Outbid' in (x.get('status_msg') or '')")
    won=$(inst_field "$id" min_bid)
    select_row "$id" || return 1
    wait_for_re "$id.*outbid" 30 || return 1
    keys b
    wait_for_flat "was outbid: a bid of $(rate "$won") took its machine" 10 || return 1
    keys C-u; type_text "$won"
    wait_for_flat "not above the $(rate "$won") that outbid it: the instance stays stopped" 5 || return 1
    not_on_screen "at or above min_bid" || return 1
    keys C-u; type_text "$(awk -v r="$won" 'BEGIN { printf "%.3f", r + 0.01 }')"
    wait_for_flat "that outbid it: the instance starts again" 5 || return 1
    keys Escape
    [ "$(sim_state "count('bid_price')")" = 0 ] || { fail "a bid was sent"; return 1; }
}

t_bid_above_ondemand() {
    id=$(first_inst "x.get('is_bid') and x.get('actual_status') == 'running' and x.get('num_gpus', 1) >= 2")
    [ "$id" != null ] || { fail "no running 2-GPU interruptible instance in the seed"; return 1; }
    od=$(sim_state "inst($id)['search']['gpuCostPerHour']")
    select_row "$id" || return 1
    keys b
    wait_for_flat "on-demand $(rate "$od")" 10 || return 1
    wait_for_flat "0.001-64, 32 per GPU" 5 || return 1
    keys C-u; type_text "6"; keys Enter
    wait_for "Bid above on-demand" 10 || return 1
    wait_for_flat "A bid of \$6.000/h for instance $id" 5 || return 1
    wait_for_flat "is above its on-demand price $(rate "$od")" 5 || return 1
    keys Enter            # starts on Cancel: back to the bid, as typed
    wait_for_flat "Bid for instance $id" 10 || return 1
    [ "$(sim_state "count('bid_price')")" = 0 ] || { fail "a bid was sent before the second yes"; return 1; }
    keys C-u; type_text "40"; keys Enter   # over SPEC.md's 32, in the docs' range
    wait_for_flat "A bid of \$40.00/h" 10 || return 1
    not_on_screen "out of range" || return 1
    keys Tab Enter        # Bid anyway
    sim_expect "round(float(inst($id)['dph_base']), 2)" 40.0 15 || return 1
    [ "$(sim_state "count('bid_price')")" = 1 ] || { fail "bid sent $(sim_state "count('bid_price')") times"; return 1; }
}

t_prepay_failed() {
    id=$(first_inst "x.get('actual_status') == 'created'")
    [ "$id" != null ] || { fail "no failed-start instance in the seed"; return 1; }
    select_row "$id" || return 1
    keys '$'
    wait_for "Prepay a failed instance" 10 || return 1
    wait_for_flat "failure state (failed start: Error response from daemon: pull access denied" 5 || return 1
    keys Enter            # starts on Cancel
    wait_gone "Prepay a failed instance" 10 || return 1
    not_on_screen "amount (\$ of credit)" || return 1
    keys '$'
    wait_for "Prepay a failed instance" 10 || return 1
    keys Tab Enter        # Prepay anyway: then the amount
    wait_for_flat "Prepay instance $id" 10 || return 1
    keys C-u; type_text "5"; keys Enter
    sim_expect "round(inst($id).get('credit_balance') or 0, 2)" 5.0 15 || return 1
    [ "$(sim_state "count('prepay')")" = 1 ] || { fail "prepay sent $(sim_state "count('prepay')") times"; return 1; }
}

t_destroy_states_credit() {
    id=$(first_inst "(x.get('credit_balance') or 0) > 0")
    [ "$id" != null ] || { fail "no prepaid instance (the prepay test runs first)"; return 1; }
    other=$(first_inst "not x.get('credit_balance') and x.get('actual_status') == 'running'")
    n0=$(sim_state "len(insts)")
    select_row "$id" || return 1
    wait_for_flat "$id" 10 || return 1
    sleep 11   # the prepaid balance read back by a poll
    keys D
    wait_for "Destroy instance $id" 10 || return 1
    wait_for_flat "It holds \$5.00 of prepaid credit: destroying it ends the prepayment" 5 || return 1
    keys Escape
    keys Escape; sleep 0.3
    select_row "$other" || return 1
    keys D
    wait_for "Destroy instance $other" 10 || return 1
    not_on_screen "prepaid credit" || return 1
    keys Escape
    [ "$(sim_state "len(insts)")" = "$n0" ] || { fail "an instance was destroyed"; return 1; }
}

tap "right after an outbid, the bid dialog names the price that outbid it" t_outbid_names_price
tap "a bid above the on-demand price asks a second time; 40 \$/h on 2 GPUs is in range" t_bid_above_ondemand
tap "prepay on a failed-start instance asks first, naming the failure" t_prepay_failed
tap "destroy states the prepaid credit the instance holds" t_destroy_states_credit
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
