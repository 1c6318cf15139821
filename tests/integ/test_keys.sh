#!/bin/sh
# test_keys.sh: the key source and start-up checks, through --dump against
# rentop-sim: a key source the user named is the only one (a missing or
# empty --api-key-file is exit 3 even with VAST_API_KEY and the vastai file
# present, and nothing is sent); VAST_API_KEY is trimmed and refused with a
# control character; a key file over 4,095 bytes is refused; --config naming
# a directory or a device is refused; an unknown config key is echoed
# without its escape bytes; -h prints the help.
. "$(dirname "$0")/corenet_lib.sh"

start_sim --seed 5 --instances 5 --endpoints 0 --rate-limits off || { notok "simulator starts"; exit 1; }
mkdir -p "$HOME/.config/vastai"
(umask 077; printf '%s\n' "$SIM_KEY" >"$HOME/.config/vastai/vast_api_key")

# expect NAME WANT_RC GREP: the last run's status and stderr
expect() {
    if [ "$rc" -eq "$2" ] && { [ -z "$3" ] || grep -q -- "$3" "$T/err"; } &&
        ! grep -q "$SIM_KEY" "$T/err" "$T/out"; then
        ok "$1"
    else
        notok "$1" "rc=$rc (want $2)" "$(head -c 300 "$T/err")"
    fi
}
run() { "$RENTOP" --url "$SIM_URL" "$@" >"$T/out" 2>"$T/err"; rc=$?; }

before=$(requests /api/v0/users/current)
VAST_API_KEY="$SIM_KEY" run --api-key-file "$T/missing" --dump user
expect "a missing --api-key-file is exit 3 with the reason, no fall-back" 3 "$T/missing: No such file"
: >"$T/empty"
chmod 600 "$T/empty"
VAST_API_KEY="$SIM_KEY" run --api-key-file "$T/empty" --dump user
expect "an empty --api-key-file is exit 3, no fall-back" 3 "is empty"
mkdir -p "$HOME/.config/rentop"
printf 'api_key_file = %s\n' "$T/missing" >"$T/conf"
VAST_API_KEY="$SIM_KEY" run --config "$T/conf" --dump user
expect "api_key_file in the config is named too: exit 3" 3 "$T/missing"
after=$(requests /api/v0/users/current)
if [ "$before" = "$after" ]; then
    ok "nothing was sent with another key"
else
    notok "nothing was sent with another key" "$before -> $after requests"
fi

VAST_API_KEY="  $SIM_KEY
" run --dump user
expect "VAST_API_KEY is trimmed like a key file" 0 ""
grep -q '^email ' "$T/out" || notok "the trimmed key fetched the user"
VAST_API_KEY="$SIM_KEY
X-Injected: yes" run --dump user
expect "VAST_API_KEY with a line break is refused (exit 3), not sent" 3 "VAST_API_KEY holds control characters"
if ! grep -q Injected "$T/err"; then ok "the refused key is not echoed"; else notok "the refused key is not echoed"; fi

head -c 5000 /dev/zero | tr '\0' k >"$T/big"
chmod 600 "$T/big"
run --api-key-file "$T/big" --dump user
expect "a key file over 4,095 bytes is refused (exit 3)" 3 "larger than 4095 bytes"

run --config "$T" --dump user
expect "--config naming a directory is refused (exit 2)" 2 "not a regular file"
run --config /dev/null --dump user
expect "--config naming a device is refused (exit 2)" 2 "not a regular file"
printf 'bogus\033[31m_key\007 = 1\n' >"$T/badconf"
run --config "$T/badconf" --dump user
if [ "$rc" -eq 2 ] && grep -q "unknown key 'bogus_key'" "$T/err" && ! grep -q "$(printf '\033')" "$T/err"; then
    ok "an unknown config key is echoed without its escape bytes"
else
    notok "an unknown config key is echoed without its escape bytes" "rc=$rc" "$(od -c "$T/err" | head -n 3)"
fi

"$RENTOP" -h >"$T/h.out" 2>&1; rc=$?
"$RENTOP" --help >"$T/help.out" 2>&1
if [ $rc -eq 0 ] && cmp -s "$T/h.out" "$T/help.out" && grep -q -- '--api-key-file' "$T/h.out"; then
    ok "-h prints the help like --help"
else
    notok "-h prints the help like --help" "rc=$rc"
fi

finish
