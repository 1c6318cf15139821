#!/bin/sh
# test_tfa_session.sh: the 2FA view against rentop-sim --tfa on (one TOTP
# method): l logs in with a code (the session key stored 0600 where the
# official CLI keeps it, never drawn) and o logs out (file deleted); s adds
# a phone after authorizing with the TOTP code (the typed number normalised
# to E.164, the SMS code from the simulator confirms it, the full number
# never drawn); five wrong codes show the attempts left, then the lock with
# a running countdown, and no code is sent while locked; the run's log and
# screens hold no issued secret; under --read-only the view shows the
# status and refuses every change (no write reaches the simulator).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

command -v oathtool >/dev/null 2>&1 || skip_all "oathtool is not installed"
sim_start --seed 6 --quiet --rate-limits off --tfa on || { echo "not ok - simulator starts"; exit 1; }
LOG="$E2E_TMP/rentop.log"
CAPS="$E2E_TMP/captures"
mkdir -p "$CAPS"
rentop_start -s 120x45 -k home --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }

cap() { screen >"$CAPS/$1.txt"; }
# totp: the current code of the seeded method (the simulator runs on the real clock).
totp() { oathtool --totp -b "$SIM_TOTP"; }

t_open() {
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "Overview" 15 || return 1
    keys t
    wait_for "status           ON, 1 method" 15 || return 1
    wait_for "not logged in" 10 || return 1
}

# the POSTs that reached /api/v0/secrets/
posts() { sim_state "sum(n for k, v in d['requests'].items() if '/api/v0/secrets' in k for m, n in v['methods'].items() if m == 'POST')"; }

t_cancel_parked() {
    keys Escape
    wait_for "Overview" 10 || return 1
    keys ']'
    wait_for "HF_TOKEN" 20 || return 1
    keys a
    wait_for "Add env var" 10 || return 1
    type_text "TFA_DROP_TEST"
    keys Tab
    type_text "drop-value-0123456789"
    keys C-s
    wait_for_flat "add env var needs a two-factor code" 20 || return 1
    keys Escape
    wait_for "add env var cancelled" 10 || return 1
    keys Escape
    wait_gone "Add env var" 10 || return 1
    [ "$(posts)" = 1 ] || { fail "expected the one refused POST"; return 1; }
    keys '['
    wait_for "email verified" 10 || return 1
    keys t
    wait_for "not logged in" 10 || return 1
}

t_not_relaunched() {
    # a destroy asks for a code; the login it makes relaunches what waits for
    # one: the cancelled env var add must not go out with it
    ID=$(first_inst "x.get('actual_status') == 'running'")
    keys Escape 1
    wait_for "$ID" 20 || return 1
    select_row "$ID" || return 1
    keys D
    wait_for "Destroy instance $ID" 10 || return 1
    keys Tab Enter
    wait_for_flat "destroy $ID needs a two-factor code" 20 || return 1
    type_text "$(totp)"
    keys Enter
    sim_expect "inst($ID) is None" true 20 || return 1
    sleep 2
    [ "$(posts)" = 1 ] || { fail "the cancelled env var add was sent after the login"; return 1; }
    keys Escape Escape 5
    wait_for "email verified" 10 || return 1
    keys t
    wait_for "logged in (session key" 10 || return 1
}

t_update() {
    keys g e
    wait_for "Primary method" 10 || return 1
    keys C-u
    type_text "pocket app"
    keys C-s
    sim_expect "[m['label'] for m in d['tfa']['methods'] if m['method'] == 'totp']" '["pocket app"]' 20 || return 1
    # the form closes on the answer (while it waits, keys but Esc are held back)
    wait_gone "Primary method" 20 || return 1
    wait_for "pocket app" 20 || return 1
}

t_no_secret() {
    keys Escape
    wait_for "Overview" 10 || return 1
    cap end
    keys 1
    wait_for "LABEL" 10 || return 1
    no_issued_secret_in "$LOG" "$CAPS" "$E2E_TMP/rentop.stderr"
}

t_login_logout() {
    f="$E2E_HOME/.config/vastai/vast_tfa_key"
    keys o
    wait_for "not logged in" 10 || return 1
    [ ! -e "$f" ] || { fail "vast_tfa_key still there after logout"; return 1; }
    keys l
    wait_for "2FA login" 10 || return 1
    keys Down
    type_text "$(totp)"
    keys C-s
    wait_for "session key stored" 20 || return 1
    [ -s "$f" ] || { fail "no vast_tfa_key"; return 1; }
    [ "$(stat -c %a "$f")" = 600 ] || { fail "vast_tfa_key has mode $(stat -c %a "$f")"; return 1; }
    sim_expect "d['tfa']['sessions']" 2 5 || return 1  # the destroy's login, then this one
    wait_for "logged in (session key" 35 || return 1
    sess=$(cat "$f")
    case $(screen) in *"$sess"*) fail "the session key is on screen"; return 1 ;; esac
    keys o
    wait_for "session key is deleted" 10 || return 1
    [ ! -e "$f" ] || { fail "vast_tfa_key still there after logout"; return 1; }
    cap logout
}

t_sms() {
    keys s    # a method exists: authorize first, with the TOTP code
    wait_for "Authorize a new 2FA method" 10 || return 1
    keys Down
    type_text "$(totp)"
    keys C-s
    wait_for "Add a phone (SMS)" 20 || return 1
    type_text "+1 (555) 010-2030"
    keys Tab
    type_text "work phone"
    keys C-s  # the code empty: send one
    wait_for "A code was sent by SMS" 20 || return 1
    code=$(sim_get /__sim/codes | sed -n 's/.*"sms": *"\([0-9]*\)".*/\1/p')
    [ ${#code} = 6 ] || { fail "no SMS code in the simulator"; return 1; }
    type_text "$code"
    keys C-s
    wait_for "work phone" 20 || return 1
    sim_expect "[(m['method'], m['phone_number_full']) for m in d['tfa']['methods'] if m['method'] == 'sms']" \
        '[["sms", "+15550102030"]]' 10 || return 1
    case $(screen) in *"+15550102030"*) fail "the full phone number is on screen"; return 1 ;; esac
    wait_gone "Add a phone (SMS)" 20 || return 1
}

t_lock() {
    keys l
    wait_for "2FA login" 10 || return 1
    keys Down
    for i in 1 2 3 4; do
        type_text "000000"
        keys C-s
        wait_for "$((5 - i)) attempts left" 20 || return 1
    done
    type_text "000000"
    keys C-s
    wait_for_re "Locked: locked for 1[45]m[0-9][0-9]s after 5 wrong codes" 20 || return 1
    # the countdown runs (the dialog redraws every second)
    a=$(screen | grep -oE "Locked: locked for [0-9m]+s" | head -n 1)
    sleep 2
    b=$(screen | grep -oE "Locked: locked for [0-9m]+s" | head -n 1)
    [ -n "$b" ] && [ "$a" != "$b" ] || { fail "the lock countdown does not move ($a, $b)"; return 1; }
    # no code is sent while locked
    logins="sum(v['methods'].get('POST', 0) for k, v in d['requests'].items() if k.rstrip('/') == '/api/v0/tfa')"
    n=$(sim_state "$logins")
    type_text "123456"
    keys C-s
    sleep 1
    [ "$(sim_state "$logins")" = "$n" ] || { fail "a code was sent while locked"; return 1; }
    keys Escape
    wait_gone "2FA login" 10 || return 1
    wait_for_re "5 failed, locked for 1[45]m" 10 || return 1
}

t_readonly() {
    tm kill-server >/dev/null 2>&1
    rentop_start -s 120x45 -k home --read-only || return 1
    wait_for "READ-ONLY" 30 || return 1
    keys 5
    wait_for "Overview" 15 || return 1
    keys t
    wait_for "status           ON" 15 || return 1
    not_on_screen "add app" || return 1
    w=$(sim_state "writes()")
    for k in a s d b l o e; do
        keys "$k"
        wait_for_re "[Rr]ead-only" 10 || return 1
        not_on_screen "Secret:" || return 1
        not_on_screen "Verify with" || return 1
        not_on_screen "[ Cancel ]" || return 1
    done
    [ "$(sim_state "writes()")" = "$w" ] || { fail "a write reached the simulator under --read-only"; return 1; }
    keys Escape 1
    wait_for "LABEL" 10 || return 1
    rentop_quit
}

tap "t in the account view opens the 2FA view: on, one method, not logged in" t_open
tap "an env var add that needs 2FA: the prompt names it, Esc cancels it" t_cancel_parked
tap "a later 2FA login (a destroy's prompt) does not send the cancelled env var add" t_not_relaunched
tap "o logs out (file deleted), l logs in (session key 0600, never drawn), o again" t_login_logout
tap "s adds a phone after authorizing: E.164 number normalised, the SMS code confirms it" t_sms
tap "e relabels the selected method" t_update
tap "five wrong codes: the attempts left, then the lock with a running countdown; nothing sent while locked" t_lock
tap "no issued secret in the log, stderr or the captured screens" t_no_secret
tap "q quits with status 0 and no sanitizer report" rentop_quit
tap "--read-only: the 2FA view shows the status, hides and refuses every change" t_readonly
e2e_done
