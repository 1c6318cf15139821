#!/bin/sh
# test_account_lows.sh: the account view's low items of issue 21.  Env var
# values are a fixed mask (8 stars) whatever their length, in the list and
# in the add form; v reads the selected var's value now and shows it (the
# simulator, as the service per API-NOTES.md, sends values masked: v says
# so rather than showing a mask as a value), and is allowed under
# --read-only; an SSH key already on the account is not sent again without
# asking (a dialog on Cancel naming the key there); / filters a section's
# rows and Esc clears the filter; after a backup-code
# regeneration in the 2FA view the overview shows the new count at once.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_HOME/.ssh"
ssh-keygen -q -t ed25519 -N '' -C e2e-dup -f "$E2E_HOME/.ssh/id_dup" </dev/null || exit 1
rentop_start -s 200x40 || { echo "not ok - rentop starts"; exit 1; }

# said TEXT SECS: TEXT shows (across wrapped lines) within SECS.
said() { wait_for_flat "$1" "$2"; }

# stars TEXT: the run of '*' on the first screen line holding TEXT.
stars() { line_with "$1" | grep -o '\*\**' | head -n 1; }

t_mask() {
    wait_for "Instances" 30 || return 1
    cmd "account env"
    wait_for "HF_TOKEN" 20 || return 1
    [ "$(stars HF_TOKEN)" = "********" ] || { fail "the list shows '$(stars HF_TOKEN)'"; return 1; }
    keys a
    wait_for "Add env var" 10 || return 1
    type_text "E2E_MASK"; keys Tab; type_text "x"
    sleep 0.3
    [ "$(stars "Value (C-r shows)")" = "********" ] || { fail "one character shows as '$(stars "Value (C-r shows)")'"; return 1; }
    type_text "a-value-of-some-forty-characters-0123456"
    sleep 0.3
    [ "$(stars "Value (C-r shows)")" = "********" ] || { fail "41 characters show as '$(stars "Value (C-r shows)")'"; return 1; }
    keys Escape
    wait_gone "Add env var" 10
}

t_reveal() {
    keys g
    n0=$(sent GET /api/v0/secrets/)
    keys v
    said "env var HF_TOKEN: the service sends its value masked (*****): there is no value to show" 15 || return 1
    [ "$(sent GET /api/v0/secrets/)" -gt "$n0" ] || { fail "v read nothing"; return 1; }
    [ "$(stars HF_TOKEN)" = "********" ] || { fail "the row shows '$(stars HF_TOKEN)'"; return 1; }
    no_secret_on_screen
}

# / filters the section shown (its list: the list widget); Esc clears it.
t_filter() {
    row='HF_TOKEN        '                  # the row, not a toast naming the var
    wait_for "WANDB_API_KEY" 10 || return 1
    keys /; type_text "wandb"; keys Enter
    wait_gone "$row" 10 || return 1
    on_screen "WANDB_API_KEY" || return 1
    keys Escape
    wait_for "$row" 10
}

t_ssh_dup() {
    cmd "account ssh"
    wait_for "FINGERPRINT" 20 || return 1
    fp=$(ssh-keygen -l -f "$E2E_HOME/.ssh/id_dup.pub" | awk '{print $2}')
    keys a
    wait_for "Add SSH key" 10 || return 1
    on_screen "id_dup.pub" || return 1
    keys C-s
    wait_for "$fp" 20 || return 1          # added, listed
    [ "$(sent POST /api/v0/ssh/)" = 1 ] || { fail "the first add did not go"; return 1; }
    keys a
    wait_for "Add SSH key" 10 || return 1
    keys C-s
    wait_for "SSH key already added" 10 || return 1
    said "already on the account as SSH key" 5 || return 1
    said "(e2e-dup). Add it again?" 5 || return 1
    keys Enter                             # on Cancel: nothing is sent
    said "not sent: the key is already there as SSH key" 10 || return 1
    on_screen "Add SSH key" || return 1
    [ "$(sent POST /api/v0/ssh/)" = 1 ] || { fail "a duplicate was sent"; return 1; }
    keys C-s
    wait_for "SSH key already added" 10 || return 1
    keys Tab Enter                         # Add again: the operator's own decision
    sim_expect "sum(v['methods'].get('POST', 0) for k, v in d['requests'].items() if k.rstrip('/') == '/api/v0/ssh')" 2 20 || return 1
    said "SSH key $fp added" 15
}

# --read-only: v still reads (a read, not a change).
t_reveal_ro() {
    tm kill-server >/dev/null 2>&1
    sleep 0.5
    rentop_start -s 200x40 --read-only || return 1
    wait_for "Instances" 30 || return 1
    cmd "account env"
    wait_for "HF_TOKEN" 20 || return 1
    keys g v
    said "env var HF_TOKEN: the service sends its value masked" 15
}

# The overview after a regeneration in the 2FA view (t): a simulator with
# 2FA on, one backup code used first (9 left), then b makes a full set.
t_regen_overview() {
    command -v oathtool >/dev/null 2>&1 || { note "SKIP: oathtool is not installed"; return 0; }
    tfa_sim_one_code_used || return 1
    keys 5
    wait_for "9 backup codes left" 20 || return 1
    keys t
    wait_for "backup codes     9 left" 20 || return 1
    keys b
    wait_for "Regenerate backup codes" 10 || return 1
    keys Tab
    type_text "$(oathtool --totp -b "$SIM_TOTP")"
    keys C-s
    wait_for "New backup codes" 20 || return 1
    sim_expect "d['tfa']['backup_codes_remaining']" 10 5 || return 1
    keys Enter
    sleep 0.3
    keys Escape
    wait_for "Overview" 10 || return 1
    wait_for "10 backup codes left" 6
}

tap "env var values: a fixed mask of 8 in the list and the add form, whatever the length" t_mask
tap "v on an env var reads it now and says the service sends it masked" t_reveal
tap "/ filters the env vars shown; Esc shows them all again" t_filter
tap "SSH key added twice: asks first (on Cancel, naming the key there); Add again sends it" t_ssh_dup
tap "v reads under --read-only" t_reveal_ro
tap "after a backup-code regeneration the overview shows 10 left at once" t_regen_overview
t_quit() { keys Escape 1; sleep 0.5; rentop_quit; }
tap "q quits with status 0 and no sanitizer report" t_quit
e2e_done
