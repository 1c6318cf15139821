#!/bin/sh
# test_tfa_sms.sh: an account whose only 2FA method is SMS (rentop-sim
# --tfa sms) answers the 2FA challenge of actions.  The prompt names the
# action and the primary method (the SMS phone, masked), offers the other
# ways (an email code, a backup code); Enter with the code empty sends an
# SMS code, the code logs in, and the action that asked goes through and
# reports its own result: an env var delete (its dialog closes with "env
# var HF_TOKEN deleted", never "needs a 2FA session"), then, after a
# logout, a destroy ("destroyed"; Esc on its first prompt cancels it),
# whose second SMS within a minute of the unused first goes out by the
# resend the service asks for (tfa_challenge_exists);
# then an API key delete answered with an email code.  A wrong SMS code
# keeps the prompt and says so.  No code or secret reaches the screen.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

sim_start --seed 3 --quiet --rate-limits off --tfa sms || { echo "not ok - simulator starts"; exit 1; }
LOG="$E2E_TMP/rentop.log"
CAPS="$E2E_TMP/captures"
mkdir -p "$CAPS"
rentop_start -s 120x40 -k home --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }
cap() { screen >"$CAPS/$1.txt"; }

code_of() { sim_get /__sim/codes | sed -n "s/.*\"$1\": *\"\\([0-9]*\\)\".*/\\1/p"; }
# the DELETEs of env vars that reached the simulator
env_deletes() { sim_state "sum(v['methods'].get('DELETE', 0) for k, v in d['requests'].items() if '/api/v0/secrets' in k)"; }

logout() {
    keys 5
    wait_for "Machine reports" 15 || return 1
    keys t
    wait_for "logged in (session key" 20 || return 1
    keys o
    wait_for "session key is deleted" 10 || return 1
    [ ! -e "$E2E_HOME/.config/vastai/vast_tfa_key" ] || { fail "vast_tfa_key kept after logout"; return 1; }
    keys Escape
}

t_env_delete_asks() {
    keys 5
    wait_for "email verified" 20 || return 1
    keys ']'
    wait_for "HF_TOKEN" 20 || return 1
    keys g d
    wait_for "Delete the env var HF_TOKEN" 10 || return 1
    keys Tab Enter
    wait_for "Two-factor code needed" 20 || return 1
    wait_for_flat "needs a two-factor code" 10 || return 1
    # the account's one method, primary, named with its masked number; the
    # other ways offered (Down cycles them)
    wait_for_re "Primary method: SMS to [+0-9]*\\*+[0-9]{4} \\(Phone\\)" 10 || return 1
    on_screen "Enter with the code empty sends a code by SMS" || return 1
    cap prompt
    keys Down
    wait_for "email to the account's address" 5 || return 1
    keys Down
    wait_for "backup code" 5 || return 1
    keys Down
    wait_for_re "< SMS to .*, primary >" 5 || return 1
    [ "$(sim_state "'HF_TOKEN' in d['secrets']")" = true ] || { fail "deleted without a code"; return 1; }
}

t_wrong_sms_code() {
    keys Enter            # the code empty: an SMS code is sent
    wait_for "type the 6-digit code" 20 || return 1
    code=$(code_of sms)
    [ ${#code} = 6 ] || { fail "no SMS code sent"; return 1; }
    bad=000000; [ "$code" = 000000 ] && bad=111111
    type_text "$bad"
    keys Enter
    wait_for_flat "Wrong code" 20 || return 1
    on_screen "Two-factor code needed" || return 1
    [ "$(sim_state "'HF_TOKEN' in d['secrets']")" = true ] || { fail "deleted with a wrong code"; return 1; }
}

t_env_delete_done() {
    code=$(code_of sms)
    type_text "$code"
    keys Enter
    sim_expect "'HF_TOKEN' in d['secrets']" false 20 || return 1
    # the action reports its own result, and its dialog is gone
    wait_for "env var HF_TOKEN deleted" 20 || return 1
    wait_gone "Two-factor code needed" 10 || return 1
    wait_gone "Delete the env var" 10 || return 1
    not_on_screen "needs a 2FA session" || return 1
    cap env_done
    f="$E2E_HOME/.config/vastai/vast_tfa_key"
    [ -s "$f" ] || { fail "no session key stored"; return 1; }
    [ "$(stat -c %a "$f")" = 600 ] || { fail "vast_tfa_key has mode $(stat -c %a "$f")"; return 1; }
    # one DELETE reached the service with the plain key, one with the session
    [ "$(env_deletes)" = 2 ] || { fail "expected 2 DELETEs, got $(env_deletes)"; return 1; }
}

t_destroy() {
    logout || return 1
    ID=$(first_inst "x.get('actual_status') == 'running'")
    keys 1
    wait_for "$ID" 20 || return 1
    select_row "$ID" || return 1
    keys D
    wait_for "Destroy instance $ID" 10 || return 1
    keys Tab Enter
    wait_for "Two-factor code needed" 20 || return 1
    wait_for_flat "destroy $ID needs a two-factor code" 10 || return 1
    wait_for "Primary method: SMS to" 10 || return 1
    keys Enter            # a code is sent, then the prompt is cancelled
    wait_for "type the 6-digit code" 20 || return 1
    first=$(code_of sms)
    keys Escape
    wait_for "destroy $ID cancelled" 10 || return 1
    wait_gone "Two-factor code needed" 10 || return 1
    [ "$(sim_state "inst($ID) is not None")" = true ] || { fail "destroyed after Esc"; return 1; }
    keys D
    wait_for "Destroy instance $ID" 10 || return 1
    keys Tab Enter
    wait_for "Two-factor code needed" 20 || return 1
    wait_for "Primary method: SMS to" 10 || return 1
    # 35 s on: the unused code's challenge still holds the phone (60 s), so
    # a new send is refused (tfa_challenge_exists) and rentop resends
    sim_post /__sim/clock '{"advance":35}'
    keys Enter
    wait_for "type the 6-digit code" 20 || return 1
    code=$(code_of sms)
    [ ${#code} = 6 ] && [ "$code" != "$first" ] || { fail "no new SMS code ($first -> $code)"; return 1; }
    [ "$(sim_state "count('/tfa/sms/resend')")" -ge 1 ] || { fail "no SMS resend"; return 1; }
    type_text "$code"
    keys Enter
    sim_expect "inst($ID) is None" true 20 || return 1
    # its answer, or (an answer lost on a loaded machine) the re-read's verdict
    wait_for_re "instance $ID (destroyed|is gone: destroyed)" 30 || return 1
    wait_gone "Two-factor code needed" 10 || return 1
    cap destroy_done
}

t_two_destroys() {
    logout || return 1
    keys 1
    wait_for "Instances" 10 || return 1
    keys Escape           # the filter of an earlier select_row
    IDS=$(sim_state "' '.join(str(x['id']) for x in sorted(insts, key=lambda x: x['id']) if x.get('actual_status') == 'running')")
    A=$(echo "$IDS" | cut -d' ' -f1)
    B=$(echo "$IDS" | cut -d' ' -f2)
    # both destroys are out before the first refusal comes back
    sim_post /__sim/fault '{"path":"/api/v0/instances/","method":"DELETE","kind":"latency","count":2,"ms":2500}'
    for x in "$A" "$B"; do
        select_row "$x" || return 1
        keys D
        wait_for "Destroy instance $x" 10 || return 1
        keys Tab Enter
        wait_gone "Destroy instance $x" 10 || return 1
        keys Escape
    done
    wait_for "Two-factor code needed" 20 || return 1
    sleep 3               # the second refusal too
    keys C-n              # C-n sends a code as well
    wait_for "type the 6-digit code" 20 || return 1
    type_text "$(code_of sms)"
    keys Enter
    sim_expect "[inst($A) is None, inst($B) is None]" "[true, true]" 20 || return 1
    wait_gone "Two-factor code needed" 10 || return 1
    keys 2
    wait_for "instance $A destroyed" 10 || return 1
    wait_for "instance $B destroyed" 10 || return 1
    keys 1
}

t_apikey_email() {
    logout || return 1
    keys 5
    wait_for "Machine reports" 15 || return 1
    keys ']'
    wait_for "SCOPE" 15 || return 1
    wait_for "read-only monitor" 20 || return 1
    n0=$(sim_state "len(d['apikeys'])")
    ro=$(sim_state "next(k['id'] for k in d['apikeys'] if k.get('key') != '$SIM_KEY')")
    # the read-only key (not rentop's own, which asks twice): first or last row
    keys g d
    wait_for "Delete API key" 10 || return 1
    case $(screen) in *"Delete API key $ro"*) ;; *) keys Escape G d ;; esac
    wait_for "Delete API key $ro" 10 || return 1
    keys Tab Enter
    wait_for "Two-factor code needed" 20 || return 1
    wait_for "Primary method: SMS to" 10 || return 1
    keys Down             # email
    wait_for "< email to the account's address" 5 || return 1
    keys Enter
    wait_for_re "sent to d\\*\\*\\*@example.com" 20 || return 1
    code=$(code_of email)
    [ ${#code} = 6 ] || { fail "no email code sent"; return 1; }
    type_text "$code"
    keys Enter
    sim_expect "len(d['apikeys'])" "$((n0 - 1))" 20 || return 1
    wait_for "API key $ro deleted" 20 || return 1
    wait_gone "Two-factor code needed" 10 || return 1
    cap apikey_done
    keys 1 Escape
}

t_no_secret() {
    no_issued_secret_in "$LOG" "$CAPS" "$E2E_TMP/rentop.stderr"
}

tap "an env var delete asks for a code naming the SMS primary, offers email and backup codes" t_env_delete_asks
tap "Enter sends an SMS code; a wrong code keeps the prompt and says so" t_wrong_sms_code
tap "the SMS code logs in; the env var delete goes through and reports its own result" t_env_delete_done
tap "after a logout a destroy asks again; Esc cancels it; asked again, the SMS goes by resend; destroyed" t_destroy
tap "two destroys refused at once both go after one login (C-n sent its code), each with its own result" t_two_destroys
tap "an API key delete answered with an email code reports its own result" t_apikey_email
tap "no issued secret or code on screen, in the log or on stderr" t_no_secret
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
