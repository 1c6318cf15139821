#!/bin/sh
# test_secrets_scan.sh: the secret scan other e2e tests use
# (secrets_lib.sh) finds what the simulator issued: a new API key, an env
# value, a TOTP secret, backup codes and a session key written into a file
# are each caught (so a passing scan means something), a clean file passes,
# and the record survives /__sim/reset.  Needs curl, python3 and oathtool.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

command -v oathtool >/dev/null 2>&1 || skip_all "oathtool is missing"
sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }

api() { # METHOD PATH [BODY]: a keyed call, the answer on stdout
    curl -sS --max-time 10 -X "$1" -H "Authorization: Bearer $SIM_KEY" \
        -H 'Content-Type: application/json' --data-binary "${3:-{\}}" "$SIM_URL$2"
}
field() { python3 -c 'import json,sys; v=json.load(sys.stdin)[sys.argv[1]]; print(v if isinstance(v,str) else "\n".join(v))' "$1"; }

CLEAN="$E2E_TMP/clean"
mkdir -p "$CLEAN"
echo "nothing to see: $SIM_URL" >"$CLEAN/log.txt"

t_clean_passes() {
    no_issued_secret_in "$CLEAN"
}

t_catches() {
    d="$E2E_TMP/leaky"
    for what in apikey env totp backup session; do
        rm -rf "$d"; mkdir -p "$d"
        case $what in
        apikey)  api POST /api/v0/auth/apikeys/ '{"name":"t","permissions":{"api":{"user_read":{}}}}' | field key >"$d/x" ;;
        env)     api POST /api/v0/secrets/ '{"key":"LEAK_TEST","value":"leak-value-0123456789"}' >/dev/null
                 echo "value: leak-value-0123456789" >"$d/x" ;;
        totp)    api POST /api/v0/tfa/totp-setup/ | field secret >"$d/x" ;;
        backup)  ch=$(api POST /api/v0/tfa/authorize-new-method/ '{"tfa_method":"email"}' | field secret)
                 api POST /api/v0/tfa/email/ "{\"secret\":\"$ch\"}" >/dev/null
                 ecode=$(sim_get /__sim/codes | sed -n 's/.*"email": *"\([0-9]*\)".*/\1/p')
                 api PUT /api/v0/tfa/authorize-new-method/ "{\"code\":\"$ecode\",\"secret\":\"$ch\"}" >/dev/null
                 sec=$(api POST /api/v0/tfa/totp-setup/ | field secret)
                 code=$(oathtool --totp -b "$sec")
                 api POST /api/v0/tfa/confirm-new/ "{\"tfa_method\":\"totp\",\"code\":\"$code\",\"secret\":\"$sec\"}" \
                     | field backup_codes | tail -n 1 >"$d/x"
                 TOTP_SEC=$sec ;;
        session) code=$(oathtool --totp -b "$TOTP_SEC")
                 api POST /api/v0/tfa/ "{\"tfa_method\":\"totp\",\"code\":\"$code\"}" | field session_key >"$d/x" ;;
        esac
        [ -s "$d/x" ] || { fail "$what: nothing issued"; return 1; }
        if no_issued_secret_in "$d" >/dev/null; then
            fail "$what: the scan missed it"; return 1
        fi
    done
    return 0
}

t_survives_reset() {
    sim_post /__sim/reset '{}' || return 1
    d="$E2E_TMP/after"
    mkdir -p "$d"
    echo "leak-value-0123456789" >"$d/x"
    if no_issued_secret_in "$d" >/dev/null; then fail "forgotten after reset"; return 1; fi
    return 0
}

tap "a clean file passes" t_clean_passes
tap "an API key, env value, TOTP secret, backup code and session key are caught" t_catches
tap "the record survives a reset" t_survives_reset
e2e_done
