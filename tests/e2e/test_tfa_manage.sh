#!/bin/sh
# test_tfa_manage.sh: two-factor authentication managed from the 2FA view
# (`t` in the account view) against rentop-sim with 2FA off at start.
# Enable TOTP from scratch: a code sent to the account's email authorizes
# the first method (read from the simulator's /__sim/codes), then the QR code
# and the secret are drawn, the code
# computed with oathtool from the secret read off the screen; a wrong code
# keeps the dialog with the service's message and an emptied code field;
# the ten backup codes are shown once (the same codes as the simulator's),
# written to a 0600 file with w, and gone from the screen when the dialog
# closes.  Then: regenerate the backup codes, add a second method through
# the authorize window with a backup code, remove it with a backup code
# (the confirmation starts on Cancel; the DELETE's answer lost, a second
# C-s sends nothing and the re-read says it is gone).  (SMS, login/logout, the lock and
# --read-only: test_tfa_session.sh.)
# Each step is checked on the screen and in the simulator's state, and the
# run's log and screen captures hold no secret the simulator issued.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

command -v oathtool >/dev/null 2>&1 || skip_all "oathtool is not installed"
sim_start --seed 5 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
LOG="$E2E_TMP/rentop.log"
CAPS="$E2E_TMP/captures"
mkdir -p "$CAPS"
rentop_start -s 120x45 -k home --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }

# keep every screen the run looks at, for the secret scan at the end
cap() { screen >"$CAPS/$1.txt"; }

# totp SECRET: the current code (the simulator runs on the real clock; each
# python3 start of sim_state costs seconds on a loaded machine, so few are made).
totp() { oathtool --totp -b "$1"; }
# the backup codes the simulator holds, one a line
sim_codes() { sim_state "'\n'.join(d['tfa']['backup_codes'])"; }

t_open() {
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "Overview" 15 || return 1
    keys t
    wait_for "Two-factor authentication" 15 || return 1
    wait_for "status           OFF" 15 || return 1
    wait_for "No 2FA method" 10 || return 1
    cap open
}

SECRET=
t_qr() {
    keys a    # no method yet: the code sent to the account's email first
    wait_for "Authorize the first 2FA method by email" 10 || return 1
    wait_for_flat "Verification code sent to" 20 || return 1
    code=$(sim_get /__sim/codes | sed -n 's/.*"email": *"\([0-9]*\)".*/\1/p')
    [ ${#code} = 6 ] || { fail "no email code in the simulator"; return 1; }
    type_text "$code"
    keys Enter
    wait_gone "Authorize the first 2FA method by email" 20 || return 1
    wait_for "Secret:" 20 || return 1
    s=$(screen)
    # the QR code: half blocks (U+2580, U+2584, U+2588) over at least 20 rows
    rows=$(printf '%s\n' "$s" | grep -c '[▀▄█]')
    [ "$rows" -ge 20 ] || { screen_dump; fail "no QR code drawn ($rows rows of blocks)"; return 1; }
    SECRET=$(printf '%s\n' "$s" | sed -n 's/.*Secret: \([A-Z2-7 ]*[A-Z2-7]\).*/\1/p' | head -n 1 | tr -d ' ')
    [ ${#SECRET} -ge 16 ] || { screen_dump; fail "no base32 secret on screen"; return 1; }
    # it is the secret the simulator issued (the scan list holds every one)
    sim_get /__sim/secrets | grep -qF "\"$SECRET\"" || { fail "the secret on screen is not the simulator's"; return 1; }
}

t_wrong_code() {
    keys Enter
    wait_for "Confirm the authenticator app" 10 || return 1
    type_text "000000"
    keys C-s
    wait_for "Wrong code" 20 || return 1
    on_screen "Confirm the authenticator app" || return 1
    # the code field is emptied (a secret field shows one * per character)
    line=$(line_with "Current code")
    case $line in *'*'*) screen_dump; fail "the code field kept the wrong code"; return 1 ;; esac
    [ "$(sim_state "d['tfa']['enabled']")" = false ] || { fail "2FA on after a wrong code"; return 1; }
    cap wrong
}

CODES=
t_enable() {
    type_text "$(totp "$SECRET")"
    keys C-s
    wait_for "shown ONCE" 20 || return 1
    CODES=$(sim_state "'\\n'.join(d['tfa']['backup_codes']) if d['tfa']['enabled'] and len(d['tfa']['methods']) == 1 else 'not enabled'")
    [ "$(printf '%s\n' "$CODES" | wc -l)" -eq 10 ] || { fail "the simulator has no 10 backup codes"; return 1; }
    s=$(screen)
    for c in $CODES; do
        case $s in *"$c"*) ;; *) screen_dump; fail "backup code missing from the dialog"; return 1 ;; esac
    done
    # the secret is no longer drawn once the method is confirmed
    case $s in *"$(printf '%s' "$SECRET" | cut -c1-4) $(printf '%s' "$SECRET" | cut -c5-8)"*)
        fail "the TOTP secret is still on screen"; return 1 ;; esac
    keys w
    wait_for_flat "written to" 10 || return 1   # not the hint line's "(mode 0600)"
    f=$(ls "$E2E_HOME"/rentop-backup-codes-*.txt 2>/dev/null | head -n 1)
    [ -n "$f" ] || { fail "no backup-code file in HOME"; return 1; }
    [ "$(stat -c %a "$f")" = 600 ] || { fail "the backup-code file has mode $(stat -c %a "$f")"; return 1; }
    for c in $CODES; do grep -qxF "$c" "$f" || { fail "a code is missing from the file"; return 1; }; done
    keys Enter
    wait_gone "shown ONCE" 10 || return 1
    wait_for "status           ON, 1 method" 20 || return 1
    s=$(screen)
    for c in $CODES; do
        case $s in *"$c"*) fail "a backup code is on screen after its dialog closed"; return 1 ;; esac
    done
    case $s in *"$SECRET"*) fail "the TOTP secret is on screen after set-up"; return 1 ;; esac
    cap enabled
}

t_regen() {
    keys b
    wait_for "Regenerate backup codes" 10 || return 1
    keys Down
    type_text "$(totp "$SECRET")"
    keys C-s
    wait_for "New backup codes" 20 || return 1
    NEW=$(sim_codes)
    [ "$NEW" != "$CODES" ] || { fail "the simulator's codes did not change"; return 1; }
    s=$(screen)
    for c in $NEW; do
        case $s in *"$c"*) ;; *) fail "a new code is missing from the dialog"; return 1 ;; esac
    done
    keys Escape
    wait_gone "New backup codes" 10 || return 1
    s=$(screen)
    for c in $NEW; do
        case $s in *"$c"*) fail "a new backup code is on screen after its dialog closed"; return 1 ;; esac
    done
    CODES=$NEW
    cap regen
}

SECRET2=
t_second_method() {
    keys a
    wait_for "Authorize a new 2FA method" 10 || return 1
    keys Right    # "Verify with": the backup code
    wait_for "backup code" 5 || return 1
    keys Down
    type_text "$(printf '%s\n' "$CODES" | sed -n 1p)"
    keys C-s
    wait_for "Secret:" 20 || return 1
    SECRET2=$(screen | sed -n 's/.*Secret: \([A-Z2-7 ]*[A-Z2-7]\).*/\1/p' | head -n 1 | tr -d ' ')
    [ ${#SECRET2} -ge 16 ] && [ "$SECRET2" != "$SECRET" ] || { fail "no new secret"; return 1; }
    keys Enter
    wait_for "Confirm the authenticator app" 10 || return 1
    type_text "$(totp "$SECRET2")"
    keys Tab
    type_text "laptop"
    keys C-s
    # added in the window the backup code opened, which it used up
    sim_expect "[len(d['tfa']['methods']), d['tfa']['backup_codes_remaining'], d['tfa']['authorized_until'] is not None]" \
        "[2, 9, true]" 20 || return 1
    wait_for "laptop" 20 || return 1
    not_on_screen "shown ONCE" || return 1
    cap second
}

t_remove() {
    # the second method ("laptop"): its row listed (not only the toast that
    # says it was added), then G selects it
    wait_for_re "^ *[0-9]+ +[a-z]+ +laptop " 20 || return 1
    keys G
    keys d
    wait_for "Remove 2FA method" 10 || return 1
    keys Enter    # the confirmation starts on Cancel
    wait_gone "Remove 2FA method" 10 || return 1
    [ "$(sim_state "len(d['tfa']['methods'])")" = 2 ] || { fail "Enter on the confirmation removed"; return 1; }
    keys d
    wait_for "Remove 2FA method" 10 || return 1
    keys Tab Enter
    wait_for "Verify with" 10 || return 1
    keys Right Right
    keys Down
    type_text "$(printf '%s\n' "$CODES" | sed -n 2p)"
    # the DELETE's answer is lost (the service acted): the form locks, so
    # a new code and C-s send nothing again; the re-read says it is gone
    sim_post /__sim/fault '{"path":"/api/v0/tfa/","method":"DELETE","kind":"truncated","count":1}' || return 1
    keys C-s
    sim_expect "[m['secret'] for m in d['tfa']['methods']] == ['$SECRET']" true 20 || return 1
    wait_for_flat "the answer was lost" 20 || return 1
    keys C-u
    type_text "$(printf '%s\n' "$CODES" | sed -n 3p)"
    keys C-s
    wait_for_flat "is gone: removed" 30 || return 1
    n=$(sim_state "sum(v['methods'].get('DELETE', 0) for k, v in d['requests'].items() if k.rstrip('/') == '/api/v0/tfa')")
    [ "$n" = 1 ] || { fail "the removal reached the simulator $n times"; return 1; }
    wait_gone "laptop" 20 || return 1
}




t_no_secret() {
    keys Escape
    wait_for "Overview" 10 || return 1
    cap end
    keys 1
    wait_for "LABEL" 10 || return 1
    no_issued_secret_in "$LOG" "$CAPS" "$E2E_TMP/rentop.stderr"
}

tap "t in the account view opens the 2FA view: off, no method" t_open
tap "a asks for a TOTP secret: the QR code and the simulator's secret are drawn" t_qr
tap "a wrong code keeps the dialog, says so and empties the code field; 2FA stays off" t_wrong_code
tap "the right code enables 2FA; the 10 backup codes are shown once, written 0600 with w, gone after close" t_enable
tap "b regenerates the backup codes (a TOTP code first), shown once" t_regen
tap "a second TOTP method through the authorize window with a backup code" t_second_method
tap "d removes a method: the confirmation starts on Cancel, then a backup code; its lost answer is not sent again" t_remove
tap "no issued secret in the log, stderr or the captured screens" t_no_secret
tap "q quits with status 0 and no sanitizer report" rentop_quit

e2e_done
