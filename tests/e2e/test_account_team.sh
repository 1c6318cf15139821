#!/bin/sh
# test_account_team.sh: the account view's Team and Audit log sections and
# the credit transfer against rentop-sim: a member invited by e-mail with a
# role, another's role changed, one removed (the confirmation starts on
# Cancel: Enter alone removes nobody), each seen in the simulator's state;
# the audit log (:audit) lists those writes and its `/` filter narrows it;
# with the account's own role made "member" the keys say why not and send
# nothing; :transfer is confirmed twice naming recipient and amount and
# sent once; a transfer whose answer is lost is not sent again, is said to
# be of unknown outcome, and the credit read again is shown; under
# --read-only :transfer and the team keys are refused and nothing is sent.
. "$(dirname "$0")/lib.sh"

sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home

members() { sim_state "' '.join(m['username'] + ':' + m['roles'][0] for m in d['acct']['members'])"; }

t_members() {
    rentop_start -s 130x34 || return 1
    wait_for "Instances" 30 || return 1
    cmd "account team"
    wait_for "your role: owner" 20 || return 1
    wait_for_re "148301 +bob .* member" 10 || return 1
    keys a
    wait_for "Invite a team member" 10 || return 1
    type_text "carol@example.com"
    keys C-s
    wait_for "carol@example.com invited as member" 20 || return 1
    sim_expect "[i['email'] + ':' + i['role'] for i in d['acct']['invites']]" '["carol@example.com:member"]' 10 || return 1
    keys G     # bob, the last row
    keys e
    wait_for "Role of bob@example.com" 10 || return 1
    keys Left  # member -> manager
    keys C-s
    wait_for "bob@example.com is now manager" 20 || return 1
    sim_expect "[m['roles'][0] for m in d['acct']['members'] if m['username'] == 'bob']" '["manager"]' 10 || return 1
    keys d
    wait_for "Remove team member" 10 || return 1
    keys Enter                       # Cancel is focused: nobody removed
    wait_gone "Remove team member" 10 || return 1
    sleep 1
    [ "$(sent DELETE /api/v0/team/members/148301/)" = 0 ] || { fail "Enter on the confirmation removed"; return 1; }
    keys d
    wait_for "Remove team member" 10 || return 1
    keys Right Enter
    wait_for "bob@example.com removed from the team" 20 || return 1
    sim_expect "'bob' in [m['username'] for m in d['acct']['members']]" false 10 || return 1
    [ "$(sent DELETE /api/v0/team/members/148301/)" = 1 ] || { fail "not one removal"; return 1; }
    # the audit log: the three writes, filtered with /
    cmd "audit"
    wait_for "DELETE /api/v0/team/members/{}" 20 || return 1
    wait_for "PUT /api/v0/team/members/{}/roles" 10 || return 1
    keys /; type_text "carol@"; keys Enter
    wait_for_re "POST /api/v0/team/invite +\\{\"email\":\"carol@example.com\"" 10 || return 1
    not_on_screen "DELETE /api/v0/team/members/{}" || return 1
    not_on_screen "PUT /api/v0/asks" || return 1
    keys Escape
    keys 1
    rentop_quit
}

t_not_manager() {
    sim_post /__sim/set '{"what":"user","field":"team_role","value":"member"}'
    w0=$(sent POST /api/v0/team/invite/)
    rentop_start -s 130x34 || return 1
    wait_for "Instances" 30 || return 1
    cmd "account team"
    wait_for "only the team's owner and managers can invite, change roles or remove members (your role: member)" 20 || return 1
    keys a
    wait_for "only the team's owner and managers" 10 || return 1
    not_on_screen "Invite a team member" || return 1
    keys d
    not_on_screen "Remove team member" || return 1
    sleep 1
    [ "$(sent POST /api/v0/team/invite/)" = "$w0" ] || { fail "an invitation was sent"; return 1; }
    sim_post /__sim/set '{"what":"user","field":"team_role","value":"owner"}'
    keys 1
    rentop_quit
}

# a removal whose answer is lost: sent once, the dialog locked until the
# members list read again shows the member gone
t_remove_lost() {
    fault /api/v0/team/members/ DELETE lost
    rentop_start -s 130x34 || return 1
    wait_for "Instances" 30 || return 1
    cmd "account team"
    wait_for_re "148300 +alice" 20 || return 1
    keys /; type_text "alice"; keys Enter
    keys d
    wait_for "Remove team member" 10 || return 1
    keys Right Enter
    wait_for_flat "the answer was lost" 20 || return 1
    wait_for_flat "removed" 40 || return 1
    sleep 2
    [ "$(sent DELETE /api/v0/team/members/148300/)" = 1 ] || { fail "the removal was sent again"; return 1; }
    sim_expect "'alice' in [m['username'] for m in d['acct']['members']]" false 10 || return 1
    keys Escape
    keys 1
    rentop_quit
}

credit() { sim_state "round(d['user']['credit'], 2)"; }

t_transfer() {
    rentop_start -s 130x34 || return 1
    wait_for "Instances" 30 || return 1
    c0=$(credit)
    cmd "transfer carol@example.com 3.25"
    wait_for "Transfer credit" 10 || return 1
    keys C-s
    wait_for "Transfer \$3.25 of credit to carol@example.com?" 10 || return 1
    wait_for "(1 of 2)" 2 || return 1
    keys Right Enter
    wait_for "Send \$3.25 to carol@example.com now?" 10 || return 1
    [ "$(sent PUT /api/v0/commands/transfer_credit/)" = 0 ] || { fail "sent before the second confirmation"; return 1; }
    keys Right Enter
    wait_for "transferred \$3.25 to carol@example.com" 20 || return 1
    [ "$(sent PUT /api/v0/commands/transfer_credit/)" = 1 ] || { fail "not sent exactly once"; return 1; }
    sim_expect "round(d['user']['credit'], 2) <= round($c0 - 3.25, 2) + 0.01" true 10 || return 1
    # a lost answer: never sent again, said unknown, the credit read again
    fault /api/v0/commands/transfer_credit/ PUT lost
    cmd "transfer carol@example.com 2"
    wait_for "Transfer credit" 10 || return 1
    keys C-s
    wait_for "(1 of 2)" 10 || return 1
    keys Right Enter
    wait_for "(2 of 2)" 10 || return 1
    keys Right Enter
    wait_for "outcome unknown (answer lost, not resent)" 20 || return 1
    wait_for_re "credit now \\\$[0-9.]+, before \\\$[0-9.]+" 30 || return 1
    sleep 3
    [ "$(sent PUT /api/v0/commands/transfer_credit/)" = 2 ] || { fail "the lost transfer was sent again"; return 1; }
    keys 1
    rentop_quit
}

t_readonly() {
    w0=$(sent PUT /api/v0/commands/transfer_credit/)
    rentop_start -s 130x34 --read-only || return 1
    wait_for "Instances" 30 || return 1
    cmd "transfer carol@example.com 1"
    wait_for "read-only: a credit transfer is a write" 10 || return 1
    not_on_screen "Transfer credit" || return 1
    cmd "account team"
    wait_for "ROLE" 20 || return 1
    not_on_screen "a invite" || return 1
    keys a
    wait_for_re "[Rr]ead-only" 10 || return 1
    not_on_screen "Invite a team member" || return 1
    sleep 1
    [ "$(sent PUT /api/v0/commands/transfer_credit/)" = "$w0" ] || { fail "a transfer was sent"; return 1; }
    keys 1
    rentop_quit
}

tap "team: invite, change role, remove (confirmed from Cancel); the audit log filtered" t_members
tap "team: a non-manager is told why and sends nothing" t_not_manager
tap "team: a removal whose answer is lost is sent once and judged from the list read again" t_remove_lost
tap "transfer: confirmed twice, sent once; a lost answer not resent, the credit read again" t_transfer
tap "--read-only: transfer and team changes refused, nothing sent" t_readonly
e2e_done
