#!/bin/sh
# test_session.sh: the 2FA session key shared with the official CLI.  A
# session key in ~/.config/vastai/vast_tfa_key beats vast_api_key; when the
# service says the session expired (404), or refuses it as an invalid key
# (401, the official CLI's second signal), rentop deletes that file and
# retries once with the normal key, and no key ever reaches the output.
. "$(dirname "$0")/corenet_lib.sh"

command -v oathtool >/dev/null || { notok "oathtool is installed"; exit 1; }
start_sim --seed 31 --instances 30 --endpoints 0 --rate-limits off --tfa on || { notok "simulator starts"; exit 1; }
SECRET=$(sed -n 's/^totp secret: //p' "$SIM_OUT" | head -n 1)
VDIR="$HOME/.config/vastai"
mkdir -p "$VDIR"
(umask 077; printf '%s\n' "$SIM_KEY" >"$VDIR/vast_api_key")

# log in like the CLI does, and keep the session key where the CLI keeps it
CODE=$(oathtool --totp -b "$SECRET")
SESSION=$(curl -fsS -X POST -H "Authorization: Bearer $SIM_KEY" -H 'Content-Type: application/json' \
    -d "{\"tfa_method\":\"totp\",\"code\":\"$CODE\"}" "$SIM_URL/api/v0/tfa/" |
    sed -n 's/.*"session_key": *"\([^"]*\)".*/\1/p')
if [ -z "$SESSION" ]; then notok "2FA login gives a session key"; exit 1; fi
(umask 077; printf '%s' "$SESSION" >"$VDIR/vast_tfa_key")

# the session key is used (the simulator records which kind of key it saw)
"$RENTOP" --url "$SIM_URL" --page-rate 0 --dump user >"$T/a.out" 2>"$T/a.err"; rc=$?
auth=$(curl -fsS "$SIM_URL/__sim/state" | tr -d ' \n' |
    sed -n 's|.*"/api/v0/users/current/":{[^}]*}[^}]*"last_auth":"\([a-z_]*\)".*|\1|p')
if [ $rc -eq 0 ] && [ "$auth" = session ]; then
    ok "vast_tfa_key beats vast_api_key"
else
    notok "vast_tfa_key beats vast_api_key" "rc=$rc last_auth=$auth" "$(cat "$T/a.err")"
fi

# a day later the session has expired: dropped, and the normal key is used
curl -fsS -X POST -d '{"advance":90000}' "$SIM_URL/__sim/clock" >/dev/null
"$RENTOP" --url "$SIM_URL" --page-rate 0 --dump instances --json >"$T/b.json" 2>"$T/b.err"; rc=$?
if [ $rc -eq 0 ] && [ "$(records "$T/b.json")" -eq 30 ] && [ ! -e "$VDIR/vast_tfa_key" ]; then
    ok "an expired session key is dropped and the normal key retried"
else
    notok "an expired session key is dropped and the normal key retried" "rc=$rc" "$(ls "$VDIR")" "$(cat "$T/b.err")"
fi
if [ -e "$VDIR/vast_api_key" ]; then ok "the normal key file is kept"; else notok "the normal key file is kept"; fi
if ! grep -q -e "$SESSION" -e "$SIM_KEY" "$T/a.out" "$T/a.err" "$T/b.json" "$T/b.err"; then
    ok "no key in any output"
else
    notok "no key in any output"
fi

# a session key the service no longer knows (revoked, or logged out
# elsewhere) answers 401 "Invalid user key": as the official CLI, rentop
# drops it and resends once with the normal key, and says so
(umask 077; printf '%s' "stale-session-key-0123456789abcdef" >"$VDIR/vast_tfa_key")
n0=$(requests /api/v0/users/current/)
"$RENTOP" --url "$SIM_URL" --page-rate 0 --dump user >"$T/d.out" 2>"$T/d.err"; rc=$?
n1=$(requests /api/v0/users/current/)
if [ $rc -eq 0 ] && [ $((n1 - n0)) -eq 2 ] && [ ! -e "$VDIR/vast_tfa_key" ] &&
    grep -q "2FA session key was refused (HTTP 401) and its file removed: retrying once with the normal API key" "$T/d.err"; then
    ok "a session key refused with 401 Invalid user key is dropped, the normal key sent once"
else
    notok "a session key refused with 401 Invalid user key is dropped, the normal key sent once" \
        "rc=$rc requests=$((n1 - n0))" "$(ls "$VDIR")" "$(cat "$T/d.err")"
fi
# the normal key refused too: one resend only, then exit 3
(umask 077; printf '%s' "stale-session-key-0123456789abcdef" >"$VDIR/vast_tfa_key")
(umask 077; printf '%s\n' "revoked-normal-key-0123456789abcdef" >"$VDIR/vast_api_key")
n0=$(requests /api/v0/users/current/)
"$RENTOP" --url "$SIM_URL" --page-rate 0 --dump user >"$T/e.out" 2>"$T/e.err"; rc=$?
n1=$(requests /api/v0/users/current/)
if [ $rc -eq 3 ] && [ $((n1 - n0)) -eq 2 ] && grep -q "Invalid user key" "$T/e.err" &&
    ! grep -q -e "stale-session-key" -e "revoked-normal-key" "$T/e.err" "$T/e.out"; then
    ok "with both keys refused: one resend, exit 3, no key in the output"
else
    notok "with both keys refused: one resend, exit 3, no key in the output" "rc=$rc requests=$((n1 - n0))" "$(cat "$T/e.err")"
fi
(umask 077; printf '%s\n' "$SIM_KEY" >"$VDIR/vast_api_key")

# an expired session and no normal key: exit 3, the message says so
(umask 077; printf '%s' "$SESSION" >"$VDIR/vast_tfa_key")
rm -f "$VDIR/vast_api_key"
"$RENTOP" --url "$SIM_URL" --dump user >"$T/c.out" 2>"$T/c.err"; rc=$?
if [ $rc -eq 3 ] && grep -qi 'session' "$T/c.err" && ! grep -q "$SESSION" "$T/c.err"; then
    ok "an expired session without a normal key exits 3"
else
    notok "an expired session without a normal key exits 3" "rc=$rc" "$(cat "$T/c.err")"
fi

finish
