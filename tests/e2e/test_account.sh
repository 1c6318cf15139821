#!/bin/sh
# test_account.sh: the account view (5): the overview; env vars added,
# edited and deleted (checked in the simulator, the value never on screen
# or in the log, the service's existing_key error kept in the open form);
# an SSH key added from a ~/.ssh/*.pub file and deleted; a team role
# deleted; and under --read-only every section shown while a, e, d are
# refused and the simulator's write counters stay 0.  Every screen capture
# and the --log file are then searched for every secret the simulator issued.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_TMP/caps" "$E2E_HOME/.ssh"
ssh-keygen -q -t ed25519 -N '' -C e2e-acct -f "$E2E_HOME/.ssh/id_e2e" </dev/null || exit 1
FP=$(ssh-keygen -l -f "$E2E_HOME/.ssh/id_e2e.pub" | awk '{print $2}')
rentop_start -s 130x32 --log "$E2E_TMP/caps/rentop.log" || { echo "not ok - rentop starts"; exit 1; }

VAL1="e2e-value-$(date +%s)-first"
VAL2="e2e-value-$(date +%s)-second"
NCAP=0
cap() { NCAP=$((NCAP + 1)); screen >"$E2E_TMP/caps/screen.$NCAP"; }
not_in_caps() {
    if grep -rqF -- "$1" "$E2E_TMP/caps"; then fail "'$2' found in a capture or the log"; return 1; fi
    return 0
}

t_overview() {
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "email verified" 20 || return 1
    wait_for "SSH keys         1" 20 || return 1
    on_screen "demo@example.com" || return 1
    on_screen "2FA              off" || return 1
    no_secret_on_screen || return 1
    cap
}

t_env_add() {
    keys ']'
    wait_for "HF_TOKEN" 20 || return 1
    keys a
    wait_for "Add env var" 10 || return 1
    type_text "E2E_VAR"; keys Tab; type_text "$VAL1"
    cap
    not_on_screen "$VAL1" || return 1
    keys C-s
    wait_for "env var E2E_VAR added" 20 || return 1
    sim_expect "d['secrets'].get('E2E_VAR')" "$VAL1" 20 || return 1
    wait_for_re "^ *E2E_VAR +\*" 20 || return 1   # its row (the toast names it too)
    cap
    not_on_screen "$VAL1"
}

t_env_edit() {
    # sorted by name: E2E_VAR is the first row
    keys g
    keys e
    wait_for "Edit env var" 10 || return 1
    type_text "$VAL2"
    keys C-r
    wait_for "$VAL2" 10 || return 1     # C-r shows the value while typing
    keys C-r
    wait_gone "$VAL2" 10 || return 1
    keys C-s
    wait_for "env var E2E_VAR changed" 20 || return 1
    sim_expect "d['secrets'].get('E2E_VAR')" "$VAL2" 20 || return 1
    cap
    not_on_screen "$VAL2"
}

t_env_error() {
    keys a
    wait_for "Add env var" 10 || return 1
    type_text "HF_TOKEN"; keys Tab; type_text "whatever-e2e"
    keys C-s
    wait_for "variable of that name exists" 20 || return 1
    on_screen "Add env var" || return 1           # the form stays open
    on_screen "HF_TOKEN" || return 1
    cap
    keys Escape
    wait_gone "Add env var" 10
}

t_env_delete() {
    keys g
    keys d
    wait_for "Delete the env var E2E_VAR" 10 || return 1
    keys Enter                                     # starts on Cancel
    wait_gone "Delete the env var" 10 || return 1
    [ "$(sim_state "'E2E_VAR' in d['secrets']")" = true ] || { fail "Cancel deleted it"; return 1; }
    keys d
    wait_for "Delete the env var E2E_VAR" 10 || return 1
    keys Tab Enter
    wait_for "env var E2E_VAR deleted" 20 || return 1
    sim_expect "'E2E_VAR' in d['secrets']" false 20 || return 1
    wait_gone "E2E_VAR " 20
}

t_ssh() {
    keys ']' ']'
    wait_for "FINGERPRINT" 10 || return 1

    keys a
    wait_for "Add SSH key" 10 || return 1
    on_screen "id_e2e.pub" || return 1
    keys C-s
    wait_for "SSH key $FP added" 20 || return 1
    wait_for "e2e-acct" 20 || return 1      # the row (the toast has no comment)
    line=$(line_with "e2e-acct")
    case $line in *ssh-ed25519*e2e-acct*"$FP"*) ;; *) fail "row: $line"; return 1 ;; esac
    cap
    # pasting a broken line is refused before anything is sent
    w=$(sim_state "writes()")
    keys a
    wait_for "Add SSH key" 10 || return 1
    keys Down; type_text "ssh-ed25519 not-base64!"
    keys C-s
    wait_for_re "base64|not valid" 10 || return 1
    keys Escape
    wait_gone "Add SSH key" 10 || return 1
    [ "$(sim_state "writes()")" = "$w" ] || { fail "an invalid key was sent"; return 1; }

    keys G
    sleep 0.5
    id=$(line_with "e2e-acct" | awk '{print $1}')
    keys d
    wait_for "Delete SSH key $id" 10 || return 1
    keys Tab Enter
    wait_for "SSH key $id deleted" 20 || return 1
    wait_gone "e2e-acct" 20
}

t_role_delete() {
    keys ']'
    wait_for "PERMISSIONS" 10 || return 1
    wait_for "manager" 20 || return 1
    keys G
    sleep 0.5
    rname=$(screen | sed -n '5,$p' | grep -E '^ [a-z]' | tail -n 1 | awk '{print $1}')
    [ -n "$rname" ] || { fail "no role row"; return 1; }
    keys d
    wait_for "Delete the team role $rname" 10 || return 1
    keys Tab Enter
    wait_for "team role $rname deleted" 20 || return 1
    sim_expect "any(r.get('name') == '$rname' for r in (d['roles'] if isinstance(d['roles'], list) else d['roles'].values()))" false 20
}

t_no_secret() {
    cap
    keys 1
    wait_for "Enter detail" 10 || return 1
    rentop_quit || return 1
    not_in_caps "$VAL1" "the first env value" || return 1
    not_in_caps "$VAL2" "the second env value" || return 1
    no_issued_secret_in "$E2E_TMP/caps"
}

t_readonly() {
    tm kill-session -t "$E2E_SESSION" 2>/dev/null
    w0=$(sim_state "writes()")
    rentop_start -s 130x32 --read-only || return 1
    wait_for "READ-ONLY" 30 || return 1
    keys 5
    wait_for "email verified" 20 || return 1
    # each section's own keys (a key a section does not have does nothing)
    for sec in "HF_TOKEN:a e d" "SCOPE:a d" "FINGERPRINT:a d" "PERMISSIONS:a e d"; do
        keys ']'
        wait_for "${sec%%:*}" 20 || return 1
        for k in ${sec#*:}; do
            keys "$k"
            wait_for_re "[Rr]ead-only|READ-ONLY.*(refus|not allowed)" 10 || return 1
            not_on_screen "[ Cancel ]" || return 1
            not_on_screen "C-s submit" || return 1
        done
    done
    keys '?'
    wait_for "Account view" 10 || return 1
    not_on_screen "add an env var" || return 1
    keys Escape
    sleep 1
    [ "$(sim_state "writes()")" = "$w0" ] || {
        fail "a write reached the service: $(sim_state "{k: v['methods'] for k, v in d['requests'].items() if set(v['methods']) - {'GET'}}")"
        return 1; }
    cap
    keys 1
    wait_for "Enter detail" 10 || return 1
    rentop_quit
}

tap "account view: overview shows the user, 2FA and key counts" t_overview
tap "env var add: value typed masked, sent, stored in the simulator" t_env_add
tap "env var edit: C-r shows the value while typing; PUT stores it" t_env_edit
tap "env var add of an existing name: the service's error in the open form" t_env_error
tap "env var delete: confirm starts on Cancel; Delete removes it" t_env_delete
tap "SSH key add from ~/.ssh/*.pub (fingerprint as ssh-keygen -l), invalid line refused, delete" t_ssh
tap "team role delete with confirmation" t_role_delete
tap "no env value or issued secret in any capture or the log" t_no_secret
tap "--read-only: every section shown, a/e/d refused, no write reaches the simulator" t_readonly
e2e_done
