#!/bin/sh
# test_inst_outbid.sh: outbid and failed starts in the instances view
# (issue 21), against rentop-sim with a manual clock:
# - an interruptible outbid on demand (/__sim/instance compete_in) shows as
#   `outbid`, not `stopped`: its row, the header's count, the event log
#   ("running -> outbid"), the detail; the hint bar offers `b` first and no
#   `S`, and S says why (b bids for it again); interruptible rows carry
#   "(bid)";
# - x on a failed-start row explains why ssh will not work and runs nothing;
# - x on a running row shows a "connecting..." line while ssh starts.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off --clock manual || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_HOME/.config/rentop"
{
    echo '#!/bin/sh'
    # a slow ssh: the connecting line stays on the terminal while it runs
    printf '%s\n' "echo \"args: \$*\" >'$E2E_TMP/ssh.out'; sleep 3"
} >"$E2E_TMP/fake-ssh"
chmod 755 "$E2E_TMP/fake-ssh"
printf 'ssh_command = %s\nssh = direct\n' "$E2E_TMP/fake-ssh" >"$E2E_HOME/.config/rentop/config"
rentop_start -s 160x40 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

tap() { note "at $(date +%s)"; keys Escape Escape Escape; sleep 0.3; keys 1; sleep 0.2; e2e_tap "$@"; }

OB=$(first_inst "x.get('is_bid') and x.get('actual_status') == 'running'")
note "outbid on demand: $OB"

t_outbid_state() {
    [ "$OB" != None ] || { fail "no running interruptible instance in the seed"; return 1; }
    select_row "$OB" || return 1
    wait_for_re "$OB .*running \(bid\)" 20 || return 1
    sim_post /__sim/instance "{\"id\":$OB,\"compete_in\":1,\"compete_price\":30}" || return 1
    sim_post /__sim/clock '{"advance":5}' || return 1
    sim_expect "'Outbid' in (inst($OB).get('status_msg') or '')" true 10 || return 1
    wait_for_re "$OB .*outbid \(bid\)" 30 || return 1
    line_with "$OB" | grep -q stopped && { fail "the row still says stopped: $(line_with "$OB")"; return 1; }
    wait_for_re "[0-9]+ failed 1 outbid" 10 || return 1
    # the hint bar: b first, no S
    hints=$(screen | tail -n 1)
    note "hints: $hints"
    case $hints in " b bid"*) ;; *) fail "b is not first in the hints"; return 1 ;; esac
    case $hints in *"S start"*) fail "S is offered on an outbid row"; return 1 ;; esac
    keys S
    wait_for_flat "was outbid: b bids above the winning price to start it" 10 || return 1
    sleep 1
    [ "$(inst_field "$OB" intended_status)" = stopped ] || { fail "S sent a start"; return 1; }
    keys Enter
    wait_for_flat "outbid: a higher bid (\$30.00/h) took its machine" 10 || return 1
    wait_for_flat "interruptible" 5 || return 1
}

t_outbid_event() {
    keys 2
    wait_for_flat "instance $OB" 10 || return 1
    wait_for_re "$OB .*: running -> outbid" 10 || return 1
    not_on_screen "running -> stopped" || return 1
}

t_x_failed_start() {
    id=$(first_inst "x.get('actual_status') == 'created'")
    [ "$id" != None ] || { fail "no failed start in the seed"; return 1; }
    rm -f "$E2E_TMP/ssh.out"
    select_row "$id" || return 1
    keys x
    wait_for_flat "no ssh: instance $id never started (failed start)" 10 || return 1
    wait_for_flat "pull access denied" 5 || return 1
    sleep 1
    [ ! -e "$E2E_TMP/ssh.out" ] || { fail "ssh ran on a failed start"; return 1; }
}

t_x_connecting() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ports')")
    rm -f "$E2E_TMP/ssh.out"
    select_row "$id" || return 1
    keys x
    wait_for "rentop: connecting to instance $id (root@" 10 || return 1
    wait_for "back from ssh to instance $id" 15 || return 1
    [ -s "$E2E_TMP/ssh.out" ] || { fail "ssh did not run"; return 1; }
}

tap "an outbid shows as outbid: row, header count, hints (b first, no S), S says why, detail" t_outbid_state
tap "the event log says running -> outbid" t_outbid_event
tap "x on a failed start explains why ssh will not work and runs nothing" t_x_failed_start
tap "x shows a connecting line while ssh starts" t_x_connecting
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
