#!/bin/sh
# test_action_guards.sh: keys that interrupt work confirm first, and actions
# fit the row.  R (reboot) opens a dialog that starts on Cancel, names the
# instance and says the work is interrupted: R then Enter sends nothing (the
# simulator's reboot counter stays 0), R Tab Enter reboots; the same from
# the detail view.  s or x on a stopped row and S on a running one say why
# and send nothing, and the hint bar offers only what applies.  Unbinding a
# key in the config: test_config_bind.sh.
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
    sim_expect "count('/instances/reboot/$id')" $(( mine + 1 )) 15 || return 1
    clear_filter
}

t_reboot_detail_confirms() {
    id=$(first_inst "$RUNNING and x['id'] != $(first_inst "$RUNNING")")
    [ "$id" != null ] || id=$(first_inst "$RUNNING")
    before=$(sim_state "count('/instances/reboot/')")
    # the previous test's reboot may have been this instance's (once it runs again)
    mine=$(sim_state "count('/instances/reboot/$id')")
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
    sim_expect "count('/instances/reboot/$id')" $(( mine + 1 )) 15 || return 1
    keys Escape
    clear_filter
}

# Actions that fit the row: refused with the reason, nothing sent.
STOPPED="x.get('intended_status') == 'stopped' and x.get('actual_status') in ('exited', 'stopped')"

t_stop_on_stopped() {
    id=$(first_inst "$STOPPED")
    [ "$id" != null ] || { fail "no stopped instance in the seed"; return 1; }
    select_row "$id" || return 1
    # the hint bar offers start, not stop or ssh
    wait_for_re "S start" 10 || return 1
    hints=$(screen | tail -n 1)
    case $hints in *"s stop"*|*"x ssh"*) fail "hint bar of a stopped row: $hints"; return 1 ;; esac
    w0=$(sim_state "writes()")
    keys s
    wait_for "instance $id is stopped: S starts it" 10 || return 1
    not_on_screen "Stop instance" || return 1
    keys x
    wait_for "instance $id is stopped: S starts it, then x connects" 10 || return 1
    # the same action as a command, through the same preconditions
    keys :
    type_text "stop"
    keys Enter
    wait_for "instance $id is stopped: S starts it" 10 || return 1
    sleep 1
    [ "$(sim_state "writes()")" = "$w0" ] || { fail "a request was sent"; return 1; }
    clear_filter
}

t_start_on_running() {
    # the last running instance by id: not one the reboot tests touched
    id=$(sim_state "max(x['id'] for x in insts if $RUNNING)")
    select_row "$id" || return 1
    hints=$(screen | tail -n 1)
    case $hints in *"S start"*) fail "hint bar of a running row: $hints"; return 1 ;; esac
    w0=$(sim_state "writes()")
    # a toast of an earlier job may replace the answer: press again if so
    for try in 1 2 3; do
        keys S
        wait_for "instance $id is running" 3 2>/dev/null >/dev/null && break
    done
    wait_for "instance $id is running" 5 || return 1
    sleep 1
    [ "$(sim_state "writes()")" = "$w0" ] || { fail "a request was sent"; return 1; }
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
tap "s and x on a stopped row say why and send nothing; its hints offer start only" t_stop_on_stopped
tap "S on a running row says why and sends nothing" t_start_on_running
tap "q quits with status 0" rentop_quit
e2e_done
