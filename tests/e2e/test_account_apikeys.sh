#!/bin/sh
# test_account_apikeys.sh: the account view's API keys section against
# rentop-sim (screen and simulator state): its own hint bar and keys; a key
# created with a scope (the permissions sent checked), shown once, written to a new
# 0600 file (never over an existing one) and copied with OSC 52, then absent
# from the screen, the scrollback, the log and every capture; a full-access
# key sent without permissions; a delete that starts on Cancel (nothing
# sent) and then deletes after one confirmation; the key rentop runs with
# asks twice (Cancel on the second sends nothing), and is deleted after both
# (said in the event log).  Roles, reports, --read-only:
# test_account_roles_reports.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_TMP/caps"
LOG="$E2E_TMP/caps/rentop.log"
rentop_start -s 130x34 --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }

NCAP=0
cap() { NCAP=$((NCAP + 1)); screen >"$E2E_TMP/caps/screen.$NCAP"; tm capture-pane -p -S - -E - -t "$E2E_SESSION" >"$E2E_TMP/caps/scroll.$NCAP" 2>/dev/null; }
count_method() { sim_state "sum(v['methods'].get('$2', 0) for k, v in d['requests'].items() if '$1' in k)"; }
key_of() { sim_state "next((k.get('$2') for k in d['apikeys'] if k.get('name') == '$1'), None)"; }
NEWKEY=

t_keys_section() {
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "email verified" 20 || return 1
    keys ']' ']'
    wait_for "SCOPE" 10 || return 1
    wait_for "read-only monitor" 20 || return 1
    # the hint bar is the section's: create and delete, no edit
    wait_for_re "a create.*d delete" 10 || return 1
    not_on_screen "e edit" || return 1
    keys e                                 # not a key of this section: nothing opens
    sleep 0.5
    not_on_screen "Edit" || return 1
    cap
}

t_key_create() {
    keys a
    wait_for "Create API key" 10 || return 1
    type_text "e2e-ci"
    keys Tab Right                         # full access -> read-only
    wait_for_re "Scope +< *read-only" 10 || wait_for "read-only >" 5 || return 1
    keys C-s
    wait_for "New API key (shown once)" 20 || return 1
    on_screen "forgets it when this closes" || return 1
    NEWKEY=$(key_of e2e-ci key)
    [ -n "$NEWKEY" ] && [ "$NEWKEY" != null ] || { fail "no key e2e-ci in the simulator"; return 1; }
    on_screen "$NEWKEY" || return 1
    rights=$(key_of e2e-ci rights)
    [ "$rights" = '{"api": {"user_read": {}, "instance_read": {}}}' ] || { fail "rights $rights"; return 1; }
    # w: a new 0600 file holding the key
    keys w
    wait_for "Write the new API key to a file" 10 || return 1
    keys C-u; type_text "$E2E_TMP/newkey.txt"; keys C-s
    wait_for "written to" 10 || return 1
    [ "$(stat -c %a "$E2E_TMP/newkey.txt")" = 600 ] || { fail "mode $(stat -c %a "$E2E_TMP/newkey.txt")"; return 1; }
    [ "$(cat "$E2E_TMP/newkey.txt")" = "$NEWKEY" ] || { fail "the file does not hold the key"; return 1; }
    # w again on the same file: refused, nothing overwritten
    keys w
    wait_for "Write the new API key to a file" 10 || return 1
    keys C-u; type_text "$E2E_TMP/newkey.txt"; keys C-s
    wait_for "exists" 10 || return 1
    keys Escape
    wait_gone "Write the new API key" 10 || return 1
    # y: OSC 52 to the terminal (tmux keeps it as a paste buffer)
    tm set -g set-clipboard on
    keys y
    wait_for "clipboard (OSC 52" 10 || return 1
    sleep 0.5
    got=$(tm show-buffer 2>/dev/null)
    tm delete-buffer 2>/dev/null
    [ "$got" = "$NEWKEY" ] || { fail "the clipboard does not hold the key"; return 1; }
    keys Enter
    wait_gone "New API key" 10 || return 1
    wait_for "e2e-ci" 20 || return 1
    cap
    not_on_screen "$NEWKEY" || return 1
    if tm capture-pane -p -S - -E - -t "$E2E_SESSION" | grep -qF -- "$NEWKEY"; then
        fail "the key is in the scrollback"; return 1
    fi
    line=$(line_with "e2e-ci")
    case $line in *read-only*) ;; *) fail "row: $line"; return 1 ;; esac
}

t_key_full_access() {
    keys a
    wait_for "Create API key" 10 || return 1
    type_text "e2e-full"
    keys C-s
    wait_for "New API key (shown once)" 20 || return 1
    [ "$(key_of e2e-full rights)" = null ] || { fail "a full-access key was sent permissions"; return 1; }
    keys Escape
    wait_gone "New API key" 10 || return 1
    wait_for "e2e-full" 20
}

t_key_delete() {
    keys G
    wait_for "e2e-full" 10 || return 1
    id=$(key_of e2e-full id)
    keys d
    wait_for "Delete API key $id" 10 || return 1
    keys Enter                             # starts on Cancel
    wait_gone "Delete API key" 10 || return 1
    [ "$(count_method /auth/apikeys/ DELETE)" = 0 ] || { fail "Cancel sent a delete"; return 1; }
    keys d
    wait_for "Delete API key $id" 10 || return 1
    keys Tab Enter
    wait_for "API key $id deleted" 20 || return 1   # not rentop's key: asked once
    sim_expect "any(k.get('id') == $id for k in d['apikeys'])" false 10 || return 1
    wait_gone "e2e-full" 20
}

t_own_key_cancel() {
    keys g
    own=$(sim_state "next(k['id'] for k in d['apikeys'] if k.get('key') == '$SIM_KEY')")
    wait_for "$own" 10 || return 1
    keys d
    wait_for "Delete API key $own" 10 || return 1
    keys Tab Enter
    wait_for "is the key rentop is running with" 20 || return 1
    on_screen "Delete anyway" || return 1
    keys Enter                             # the second one starts on Cancel too
    wait_gone "running with" 10 || return 1
    [ "$(count_method /auth/apikeys/ DELETE)" = 1 ] || { fail "a delete was sent"; return 1; }
    [ "$(sim_state "any(k['id'] == $own for k in d['apikeys'])")" = true ] || { fail "own key gone"; return 1; }
    cap
}



t_no_secret() {
    cap
    keys 1
    wait_for "Enter detail" 10 || return 1
    rentop_quit || return 1
    grep -qF -- "$NEWKEY" "$LOG" && { fail "the new key is in the log"; return 1; }
    no_issued_secret_in "$E2E_TMP/caps"
}


t_own_key_delete() {
    tm kill-session -t "$E2E_SESSION" 2>/dev/null
    rentop_start -s 130x34 || return 1
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "email verified" 20 || return 1
    keys ']' ']'
    wait_for "SCOPE" 10 || return 1
    own=$(sim_state "next(k['id'] for k in d['apikeys'] if k.get('key') == '$SIM_KEY')")
    wait_for "$own" 20 || return 1
    keys g d
    wait_for "Delete API key $own" 10 || return 1
    keys Tab Enter
    wait_for "is the key rentop is running with" 20 || return 1
    keys Tab Enter
    sim_expect "any(k.get('key') == '$SIM_KEY' for k in d['apikeys'])" false 20 || return 1
    keys 2                                 # said in the event log, past the refusals that follow
    wait_for "it was rentop's own key" 20 || return 1
    keys 1
    rentop_quit
}

tap "API keys section: its own hint bar; e is not bound there" t_keys_section
tap "API key create (read-only scope): shown once, 0600 file, OSC 52, then gone from screen and scrollback" t_key_create
tap "API key create with full access sends no permissions" t_key_full_access
tap "API key delete: starts on Cancel (nothing sent), then deletes after one confirmation" t_key_delete
tap "deleting rentop's own key asks twice; Cancel on the second sends nothing" t_own_key_cancel
tap "no issued secret in any capture, scrollback or the log" t_no_secret
tap "rentop's own key deleted after both confirmations" t_own_key_delete
e2e_done
