#!/bin/sh
# test_tfa_email.sh: turning 2FA on from scratch, with the simulator's clock
# in manual mode (rentop-sim --tfa off --clock manual) and rentop --ascii.
# With no method, a (add an authenticator app) first asks for a code sent to
# the account's email: an unverified address is explained (no code sent);
# the form says where the code went (the service's masked address; the code
# itself read from the simulator's /__sim/codes, never drawn); C-n at once is
# refused by the service (tfa_challenge_exists) and explained; a wrong code
# is counted and the field emptied; an expired code is explained and Enter
# gets a new one; the right code opens the window and the TOTP set-up goes
# on.  The QR code is drawn in ASCII, two characters per module: the block
# read off the screen equals `qrencode -t ASCIIi` of the provisioning URI and
# zbarimg decodes it to that URI.  The app's code turns 2FA on (backup codes
# shown once).  Then a phone: s authorizes with the TOTP code; a second send
# at once is refused (tfa_challenge_exists) and explained, a resend at once
# is rate limited (sms_rate_limited) and explained, after the service's wait
# C-n resends and the new code adds the phone.  No issued secret reaches the
# log, stderr or the captured screens.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

command -v oathtool >/dev/null 2>&1 || skip_all "oathtool is not installed"
sim_start --seed 8 --quiet --rate-limits off --tfa off --clock manual ||
    { echo "not ok - simulator starts"; exit 1; }
LOG="$E2E_TMP/rentop.log"
CAPS="$E2E_TMP/captures"
mkdir -p "$CAPS"
rentop_start -s 140x60 -k home --ascii --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }

cap() { screen >"$CAPS/$1.txt"; }
# advance SECONDS: move the simulator's clock.
advance() { sim_post /__sim/clock "{\"advance\":$1}"; }
# code CHANNEL: the last code the simulator sent by sms or email.
code() { sim_get /__sim/codes | sed -n "s/.*\"$1\": *\"\\([0-9]*\\)\".*/\\1/p"; }
# totp SECRET: the code at the simulator's (manual) clock.
totp() { oathtool --totp -b -N "@$(sim_state "int(d['now'])")" "$1"; }
# the form of the email code
TITLE="Authorize the first 2FA method by email"

t_open() {
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "Overview" 15 || return 1
    keys t
    wait_for "status           OFF" 15 || return 1
    wait_for_flat "a code sent to the account's email authorizes the first" 10 || return 1
}

t_not_verified() {
    sim_post /__sim/set '{"what":"user","field":"email_verified","value":false}' || return 1
    keys a
    wait_for "$TITLE" 10 || return 1
    wait_for_flat "email address is not verified, so no code can be sent" 20 || return 1
    [ "$(code email)" = "" ] || { fail "an email code was sent to an unverified address"; return 1; }
    keys Escape
    wait_gone "$TITLE" 10 || return 1
    sim_post /__sim/set '{"what":"user","field":"email_verified","value":true}'
}

t_sent() {
    keys a
    wait_for "$TITLE" 10 || return 1
    wait_for_flat "Verification code sent to d***@example.com" 20 || return 1
    [ "$(sim_get /__sim/codes | sed -n 's/.*"email_to": *"\([^"]*\)".*/\1/p')" = demo@example.com ] ||
        { fail "the code did not go to the account's address"; return 1; }
    C1=$(code email)
    [ ${#C1} = 6 ] || { fail "no email code in the simulator"; return 1; }
    case $(line_with "Email code") in *"$C1"*) fail "the email code is drawn"; return 1 ;; esac
    # the service will not send another this soon: said so, the code still works
    keys C-n
    wait_for_flat "will not send another email code yet" 20 || return 1
    wait_for_flat "(tfa_challenge_exists)" 5 || return 1
    [ "$(code email)" = "$C1" ] || { fail "a second code went out"; return 1; }
    cap sent
}

t_wrong() {
    w=$(printf '%06d' $(( (1$C1 - 1000000 + 1) % 1000000 )))
    type_text "$w"
    keys Enter
    wait_for_flat "Wrong code" 20 || return 1
    wait_for_flat "4 attempts left" 5 || return 1
    on_screen "$TITLE" || return 1
    line=$(line_with "Email code")
    case $line in *'*'*) fail "the code field kept the wrong code"; return 1 ;; esac
    [ "$(sim_state "d['tfa']['authorized_until']")" = null ] || { fail "authorized by a wrong code"; return 1; }
}

t_expired() {
    advance 601 || return 1
    type_text "$C1"
    keys Enter
    wait_for_flat "The email code expired" 20 || return 1
    # Enter asks for a new one
    keys Enter
    wait_for_flat "Verification code sent to d***@example.com" 20 || return 1
    C2=$(code email)
    [ ${#C2} = 6 ] || { fail "no new email code"; return 1; }
    type_text "$C2"
    keys Enter
    wait_gone "$TITLE" 20 || return 1
    wait_for "Secret:" 20 || return 1
    [ "$(sim_state "d['tfa']['authorized_until'] is not None")" = true ] || { fail "no window open"; return 1; }
}

SECRET=
t_qr_ascii() {
    s=$(screen)
    SECRET=$(printf '%s\n' "$s" | sed -n 's/.*Secret: \([A-Z2-7 ]*[A-Z2-7]\).*/\1/p' | head -n 1 | tr -d ' ')
    [ ${#SECRET} -ge 16 ] || { fail "no base32 secret on screen"; return 1; }
    sim_get /__sim/secrets | grep -qF "\"$SECRET\"" || { fail "the secret on screen is not the simulator's"; return 1; }
    case $s in *▀*|*▄*|*█*) fail "half blocks drawn under --ascii"; return 1 ;; esac
    # the QR block: the rows between light quiet zones (8 '#' = 4 modules each side)
    printf '%s\n' "$s" | python3 -c '
import re, sys
rows = []
for line in sys.stdin.read().split("\n"):
    m = re.search(r"#{8}[# ]*#{8}", line)
    if m and len(m.group(0)) >= 42:
        rows.append((m.start(), m.group(0)))
    elif rows:
        break
starts = {r[0] for r in rows}; widths = {len(r[1]) for r in rows}
if len(starts) != 1 or len(widths) != 1:
    sys.exit("ragged QR block: starts %s widths %s" % (starts, widths))
w = widths.pop()
if w % 2 or w // 2 != len(rows):
    sys.exit("not square at two characters a module: %d columns, %d rows" % (w, len(rows)))
for _, r in rows:
    if any(r[i] != r[i + 1] for i in range(0, w, 2)):
        sys.exit("a module is not two equal characters")
open(sys.argv[1], "w").write("\n".join(r for _, r in rows) + "\n")
n = len(rows); px = 4
with open(sys.argv[2], "w") as f:
    f.write("P1\n%d %d\n" % (n * px, n * px))
    for y in range(n * px):
        f.write(" ".join("1" if rows[y // px][1][2 * (x // px)] == " " else "0" for x in range(n * px)) + "\n")
' "$E2E_TMP/qr.txt" "$E2E_TMP/qr.pbm" || { fail "no ASCII QR block on screen"; return 1; }
    uri="otpauth://totp/rentop-sim:demo%40example.com?secret=$SECRET&issuer=rentop-sim"
    if command -v qrencode >/dev/null 2>&1; then
        qrencode -t ASCIIi -l L -m 4 "$uri" >"$E2E_TMP/qr.want" || return 1
        cmp -s "$E2E_TMP/qr.txt" "$E2E_TMP/qr.want" ||
            { fail "the drawn QR differs from qrencode -t ASCIIi of the URI"; return 1; }
    else
        note "qrencode is missing: module comparison skipped"
    fi
    if command -v zbarimg >/dev/null 2>&1; then
        got=$(zbarimg --quiet --raw "$E2E_TMP/qr.pbm" 2>/dev/null)
        [ "$got" = "$uri" ] || { fail "zbarimg read the drawn QR as something else"; return 1; }
    else
        note "zbarimg is missing: decoding skipped"
    fi
    rm -f "$E2E_TMP/qr.txt" "$E2E_TMP/qr.want" "$E2E_TMP/qr.pbm"
}

t_enable() {
    keys Enter
    wait_for "Confirm the authenticator app" 10 || return 1
    type_text "$(totp "$SECRET")"
    keys C-s
    wait_for "shown ONCE" 20 || return 1
    keys Enter
    wait_gone "shown ONCE" 10 || return 1
    wait_for "status           ON, 1 method" 20 || return 1
    # the email's window ended with the first method
    [ "$(sim_state "[len(d['tfa']['methods']), d['tfa']['authorized_until']]")" = "[1, null]" ] ||
        { fail "not one method with the window closed"; return 1; }
    cap enabled
}

t_sms() {
    keys s    # a method exists now: authorize with its code
    wait_for "Authorize a new 2FA method" 10 || return 1
    keys Down
    type_text "$(totp "$SECRET")"
    keys C-s
    wait_for "Add a phone (SMS)" 20 || return 1
    type_text "+1 555 010 4040"
    keys C-s    # the code empty: send one
    wait_for "A code was sent by SMS" 20 || return 1
    # information, not an error: no "!" mark on a field, not in the error slot
    screen | grep -q '! .*A code was sent' && { fail "the notice is drawn as an error: $(line_with 'A code was sent')"; return 1; }
    screen | grep -q '! see below' && { fail "the notice marks a field: $(line_with '! see below')"; return 1; }
    S1=$(code sms)
    [ ${#S1} = 6 ] || { fail "no SMS code"; return 1; }
    keys C-s    # send again at once: the service refuses
    wait_for_flat "will not send another SMS code yet" 20 || return 1
    wait_for_flat "(tfa_challenge_exists)" 5 || return 1
    keys C-n    # resend at once: rate limited
    wait_for_flat "Too many SMS for now (sms_rate_limited)" 20 || return 1
    [ "$(code sms)" = "$S1" ] || { fail "a code went out while refused"; return 1; }
    advance 31 || return 1
    keys C-n
    wait_for "The code was sent again." 20 || return 1
    S2=$(code sms)
    [ ${#S2} = 6 ] || { fail "no resent SMS code"; return 1; }
    type_text "$S2"
    case $(line_with "SMS code") in *"$S2"*) fail "the SMS code is drawn"; return 1 ;; esac
    keys C-s
    wait_gone "Add a phone (SMS)" 20 || return 1
    sim_expect "[(m['method'], m['phone_number_full']) for m in d['tfa']['methods'] if m['method'] == 'sms']" \
        '[["sms", "+15550104040"]]' 10 || return 1
    cap sms
}

t_no_secret() {
    keys Escape
    wait_for "Overview" 10 || return 1
    cap end
    keys 1
    wait_for "LABEL" 10 || return 1
    no_issued_secret_in "$LOG" "$CAPS" "$E2E_TMP/rentop.stderr"
}

tap "t opens the 2FA view: off, the email authorizes the first method" t_open
tap "an unverified email address is explained; no code is sent" t_not_verified
tap "a asks for an email code first: where it went is said; C-n too soon is explained" t_sent
tap "a wrong email code is counted, the field emptied, no window" t_wrong
tap "an expired email code is explained, Enter gets a new one, which opens the window" t_expired
tap "--ascii: the QR block is qrencode's ASCII of the URI, and zbarimg decodes it" t_qr_ascii
tap "the app's code turns 2FA on; the email's window ends" t_enable
tap "SMS: a second send and a quick resend are refused and explained; after the wait C-n resends" t_sms
tap "no issued secret in the log, stderr or the captured screens" t_no_secret
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
