#!/bin/sh
# test_tfa.sh: with --tfa on, destroy needs a 2FA session.  rentop asks for a
# code, a wrong code keeps the dialog open with the service's message, the
# right TOTP code (oathtool, at the simulator's clock) logs in, stores the
# session key where the official CLI keeps it (mode 0600), and the destroy
# is retried and done.
. "$(dirname "$0")/lib.sh"

command -v oathtool >/dev/null 2>&1 || skip_all "oathtool is not installed"
sim_start --seed 1 --quiet --rate-limits off --tfa on || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 120x32 -k home || { echo "not ok - rentop starts"; exit 1; }
ID=$(first_inst "x.get('actual_status') == 'running'")

# totp: the current code at the simulator's clock.
totp() {
    now=$(sim_state "int(d['now'])")
    oathtool --totp -b -N "@$now" "$SIM_TOTP"
}

t_wrong_code() {
    wait_for "$ID" 30 || return 1
    select_row "$ID" || return 1
    keys D
    wait_for "Destroy instance $ID" 10 || return 1
    keys Tab Enter
    wait_for "Two-factor code" 20 || return 1
    wait_for_flat "requires Two Factor Authentication" 10 || return 1
    type_text "000000"
    keys Enter
    # the service's own message, and the dialog stays open for another try
    wait_for_flat "Invalid verification code" 20 || return 1
    on_screen "Two-factor code" || return 1
    [ "$(sim_state "inst($ID) is not None")" = true ] || { fail "destroyed without a valid code"; return 1; }
}

t_right_code() {
    keys C-u
    type_text "$(totp)"
    keys Enter
    sim_expect "inst($ID) is None" true 20 || return 1
    f="$E2E_HOME/.config/vastai/vast_tfa_key"
    [ -s "$f" ] || { fail "no session key stored in ~/.config/vastai/vast_tfa_key"; return 1; }
    mode=$(stat -c %a "$f")
    [ "$mode" = 600 ] || { fail "vast_tfa_key has mode $mode"; return 1; }
    grep -qF "$SIM_KEY" "$f" && { fail "the API key was stored as the session key"; return 1; }
    keys Escape Escape
    wait_gone "$ID" 20 || return 1
    s=$(screen); sess=$(cat "$f")
    case $s in *"$sess"*) fail "the session key is on screen"; return 1 ;; esac
    no_secret_on_screen
}

tap "a 2FA-protected destroy asks for a code and a wrong code keeps the dialog with the service's message" t_wrong_code
tap "the TOTP code logs in, stores the session key (0600) and the destroy goes through" t_right_code
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
