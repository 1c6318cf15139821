#!/bin/sh
# test_tfa.sh: with --tfa on, destroy needs a 2FA session.  rentop asks for a
# code naming the action ("destroy ID needs a two-factor code"), not with a
# failure message; Esc cancels and says the destroy was cancelled (nothing
# destroyed); a wrong code keeps the prompt, says the code was wrong and
# empties the field; the right TOTP code (oathtool, at the simulator's
# clock) logs in, stores the session key where the official CLI keeps it
# (mode 0600), and the destroy is retried and done.  After a logout (the
# 2FA view's o), a backup code is accepted the same way.  The event log
# says an action waits for a code (a warning), never that it failed.
. "$(dirname "$0")/lib.sh"

command -v oathtool >/dev/null 2>&1 || skip_all "oathtool is not installed"
sim_start --seed 1 --quiet --rate-limits off --tfa on || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 120x32 -k home || { echo "not ok - rentop starts"; exit 1; }
IDS=$(sim_state "' '.join(str(x['id']) for x in sorted(insts, key=lambda x: x['id']) if x.get('actual_status') == 'running')")
ID=$(echo "$IDS" | cut -d' ' -f1)
ID2=$(echo "$IDS" | cut -d' ' -f2)
ID3=$(echo "$IDS" | cut -d' ' -f3)

# totp: the current code (the simulator runs on the real clock).
totp() { oathtool --totp -b "$SIM_TOTP"; }

# destroy_ask ID: D on the instance, confirm, and wait for the 2FA prompt.
destroy_ask() {
    wait_for "$1" 30 || return 1
    select_row "$1" || return 1
    keys D
    wait_for "Destroy instance $1" 10 || return 1
    keys Tab Enter
    wait_for "Two-factor code needed" 20 || return 1
}

t_cancel() {
    destroy_ask "$ID2" || return 1
    wait_for_flat "destroy $ID2 needs a two-factor code" 10 || return 1
    # it asks; it does not open on the service's failure text
    case $(screen | sed 1,2d | tr '\n' ' ') in *"requires Two Factor"*|*"failed"*) # not the header's "N failed"
        fail "the prompt opens with a failure message"; return 1 ;; esac
    keys Escape
    wait_gone "Two-factor code needed" 10 || return 1
    wait_for "destroy $ID2 cancelled" 10 || return 1
    [ "$(sim_state "inst($ID2) is not None")" = true ] || { fail "destroyed after Esc"; return 1; }
    keys Escape
}

t_wrong_code() {
    destroy_ask "$ID" || return 1
    wait_for_flat "destroy $ID needs a two-factor code" 10 || return 1
    type_text "000000"
    keys Enter
    # says it was wrong (with the service's count), keeps the prompt, empties the field
    wait_for_flat "Wrong code" 20 || return 1
    wait_for_flat "attempts left" 5 || return 1
    on_screen "Two-factor code needed" || return 1
    case $(screen) in *000000*) fail "the wrong code is still in the field"; return 1 ;; esac
    [ "$(sim_state "inst($ID) is not None")" = true ] || { fail "destroyed without a valid code"; return 1; }
}

t_right_code() {
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

t_backup_code() {
    # log out in the 2FA view: the plain key is used again
    keys 5
    wait_for "Overview" 10 || return 1
    keys t
    wait_for "logged in (session key" 20 || return 1
    keys o
    wait_for "session key is deleted" 10 || return 1
    [ ! -e "$E2E_HOME/.config/vastai/vast_tfa_key" ] || { fail "vast_tfa_key kept after logout"; return 1; }
    keys Escape 1
    code=$(sim_state "d['tfa']['backup_codes'][0]")
    destroy_ask "$ID3" || return 1
    wait_for_flat "destroy $ID3 needs a two-factor code" 10 || return 1
    type_text "$code"
    keys Enter
    sim_expect "[inst($ID3) is None, d['tfa']['backup_codes_remaining']]" "[true, 9]" 20 || return 1
    keys Escape Escape
    case $(screen) in *"$code"*) fail "the backup code is on screen"; return 1 ;; esac
}

tap "Esc on the 2FA prompt cancels the destroy and says so; nothing is destroyed" t_cancel
tap "a wrong code keeps the prompt, says it was wrong and empties the field" t_wrong_code
tap "the TOTP code logs in, stores the session key (0600) and the destroy goes through" t_right_code
tap "after a logout, a backup code is accepted and the destroy goes through" t_backup_code
t_events_not_errors() {
    # the service asking for a code is expected: a warning in the event log
    # that says what follows, never "failed"
    keys 2
    wait_for_flat "destroy instance $ID needs a two-factor code: not done yet" 10 || return 1
    case $(screen_flat) in *"failed: HTTP 401"*|*"tfa_required"*)
        fail "the 2FA request is logged as a failure"; return 1 ;; esac
    keys 1
}

tap "the event log says an action waits for a code, not that it failed" t_events_not_errors
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
