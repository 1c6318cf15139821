#!/bin/sh
# test_dump_safety.sh: what `rentop --dump` may print and what it must not:
# no env value (extra_env, template env, onstart exports) in --json, C1
# controls, bidi overrides and invisible characters escaped in --json (and
# shown as <U+200B> in the table), numbers in their shortest
# exact form, capped column widths in the plain table, ISO 8601 times in
# `--dump user`.
. "$(dirname "$0")/corenet_lib.sh"

start_sim --seed 3 --instances 20 --endpoints 0 --rate-limits off || { notok "simulator starts"; exit 1; }

# set FIELD VALUE (JSON) on instance ID
set_inst() {
    curl -fsS -X POST -H 'Content-Type: application/json' \
        -d "{\"what\":\"instance\",\"id\":$1,\"field\":\"$2\",\"value\":$3}" "$SIM_URL/__sim/set" >/dev/null
}
dump() { "$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump "$@"; }

ID=$(dump instances --json 2>/dev/null | sed -n 's/^    "id": \([0-9]*\),*$/\1/p' | head -n 1)
[ -n "$ID" ] || { notok "an instance id from the dump"; exit 1; }

# ---- env values ---------------------------------------------------------------
set_inst "$ID" extra_env '[["HF_TOKEN","hf_SeCrEt1"],["WANDB_API_KEY","wandb_SeCrEt2"],["HF_HOME","/workspace/.hf"]]'
set_inst "$ID" onstart '"export HF_TOKEN=hf_SeCrEt3; python serve.py"'
dump instances --json >"$T/inst.json" 2>"$T/inst.err"
rc=$?
if [ $rc -eq 0 ] && ! grep -qE 'SeCrEt|/workspace/\.hf' "$T/inst.json" &&
    grep -q '"HF_TOKEN"' "$T/inst.json" && grep -q 'export HF_TOKEN=\*\*\*\*\*\*\*\*' "$T/inst.json"; then
    ok "dump instances --json masks every extra_env value and secret onstart exports"
else
    notok "dump instances --json masks every extra_env value and secret onstart exports" "rc=$rc" \
        "$(grep -nE 'SeCrEt|workspace/\.hf' "$T/inst.json" | head -n 3)"
fi
# the seeded instances carry HF_HOME=/workspace/.hf: no env value anywhere
dump templates --json >"$T/tpl.json" 2>"$T/tpl.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '"env"' "$T/tpl.json" && ! grep -qE 'JUPYTER_DIR=/|TF_CPP_MIN_LOG_LEVEL=2|MODEL=mistralai' "$T/tpl.json"; then
    ok "dump templates --json masks the env values of templates"
else
    notok "dump templates --json masks the env values of templates" "rc=$rc" "$(grep -m2 '"env"' "$T/tpl.json")"
fi
dump instances >"$T/inst.txt" 2>&1
if ! grep -qE 'SeCrEt' "$T/inst.txt"; then
    ok "the plain table shows no env value"
else
    notok "the plain table shows no env value"
fi

# ---- hostile strings and numbers ------------------------------------------------
set_inst "$ID" label '"a\u009b31mb\u202ec"'
set_inst "$ID" min_bid 12.2
dump instances --json >"$T/inst2.json" 2>/dev/null
if grep -q '"label": "a\\u009b31mb\\u202ec"' "$T/inst2.json" &&
    ! grep -q "$(printf '\302\233')" "$T/inst2.json" && ! grep -q "$(printf '\342\200\256')" "$T/inst2.json"; then
    ok "--json escapes C1 controls and bidi overrides (\\u009b, \\u202e)"
else
    notok "--json escapes C1 controls and bidi overrides" "$(grep -m1 '"label": "a' "$T/inst2.json" | od -c | head -n 3)"
fi
if grep -q '"min_bid": 12.2,' "$T/inst2.json" && ! grep -qE '[0-9]\.[0-9]*(9999999|0000000)[0-9]' "$T/inst2.json"; then
    ok "--json numbers print in the shortest exact form (12.2)"
else
    notok "--json numbers print in the shortest exact form (12.2)" "$(grep -m3 -E '"min_bid"|99999999|00000000' "$T/inst2.json")"
fi
# a label that looks like another: invisible characters are shown, in both forms
set_inst "$ID" label '"default\u200b"'
dump instances --json >"$T/inst3.json" 2>/dev/null
dump instances >"$T/inst3.txt" 2>/dev/null
if grep -q '"label": "default\\u200b"' "$T/inst3.json" && grep -q 'default<U+200B>' "$T/inst3.txt" &&
    ! grep -q "$(printf '\342\200\213')" "$T/inst3.json" "$T/inst3.txt"; then
    ok "a zero-width space in a label is visible: \\u200b in --json, <U+200B> in the table"
else
    notok "a zero-width space in a label is visible" "$(grep -m1 '"label": "default' "$T/inst3.json")" \
        "$(grep -m1 default "$T/inst3.txt")"
fi
big=$(head -c 100000 /dev/zero | tr '\0' L)
set_inst "$ID" label "\"$big\""
dump instances >"$T/wide.txt" 2>/dev/null
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/wide.txt")
if [ "$longest" -gt 0 ] && [ "$longest" -lt 600 ] && grep -qE "LLL(…|\.\.\.)" "$T/wide.txt"; then
    ok "a 100 KB label is cut in the plain table (longest line $longest bytes)"
else
    notok "a 100 KB label is cut in the plain table" "longest line $longest bytes"
fi

# ---- --dump user: times in ISO 8601 ------------------------------------------------
dump user >"$T/user.txt" 2>&1
if grep -qE '^email_verified_at +20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z$' "$T/user.txt"; then
    ok "dump user prints times as ISO 8601"
else
    notok "dump user prints times as ISO 8601" "$(grep -m1 '_at' "$T/user.txt")"
fi

finish
