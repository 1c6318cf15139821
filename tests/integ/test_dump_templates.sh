#!/bin/sh
# test_dump_templates.sh: `rentop --dump templates` against rentop-sim: with
# no --query the templates view's list (the operator's own, then the
# recommended ones, no hash_id twice: two searches and the user's id), the
# rows checked against the simulator's own answer to the same searches;
# --query as the CLI's `search templates` (one search, its select_filters
# sent as parsed); --json with every field but the registry password and
# env values; exit statuses as the other dumps (2 usage, 3 key refused, 4
# service unreachable or broken).
. "$(dirname "$0")/corenet_lib.sh"

start_sim --seed 5 --rate-limits off || { notok "simulator starts"; exit 1; }

api() { # METHOD PATH [BODY]: a keyed call, the answer on stdout
    curl -sS --max-time 10 -X "$1" -H "Authorization: Bearer $SIM_KEY" \
        -H 'Content-Type: application/json' --data-binary "${3:-{\}}" "$SIM_URL$2"
}
PASS=integ-Pa55-Secret-1199
# a private template of the operator's with a registry login and an env value
api POST /api/v0/template/ "{\"name\":\"integ-own\",\"image\":\"reg.example.com/me/app\",\"tag\":\"v3\",\"runtype\":\"ssh\",\"env\":\"-e HF_TOKEN=hf_integ_value -p 8000:8000\",\"docker_login_repo\":\"reg.example.com\",\"docker_login_user\":\"bob\",\"docker_login_pass\":\"$PASS\"}" >/dev/null

# the expected ids, from the simulator's answers to the view's two searches
want=$(python3 - "$SIM_URL" "$SIM_KEY" <<'EOF'
import json, sys, urllib.parse, urllib.request
url, key = sys.argv[1], sys.argv[2]
def get(path):
    r = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + key})
    return json.load(urllib.request.urlopen(r))
uid = get("/api/v0/users/current/")["id"]
ids, seen = [], set()
for f in ({"creator_id": {"eq": uid}}, {"recommended": {"eq": True}}):
    for t in get("/api/v0/template/?select_filters=" + urllib.parse.quote(json.dumps(f)))["templates"]:
        if t["hash_id"] not in seen:
            seen.add(t["hash_id"]); ids.append(str(t["id"]))
print(" ".join(ids))
EOF
)
before=$(requests /api/v0/template/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates >"$T/t.txt" 2>"$T/t.err"
rc=$?
after=$(requests /api/v0/template/)
got=$(sed 1d "$T/t.txt" | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//')
if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && [ $((after - before)) -eq 2 ]; then
    ok "dump templates: own then recommended, as the view's two searches"
else
    notok "dump templates: own then recommended, as the view's two searches" "rc=$rc want '$want' got '$got' searches $((after - before))" "$(cat "$T/t.err")"
fi
if head -n 1 "$T/t.txt" | grep -q '^ID  *HASH_ID  *NAME  *IMAGE  *RUNTYPE  *DISK$' &&
   grep -q 'integ-own  *reg.example.com/me/app:v3  *ssh' "$T/t.txt"; then
    ok "dump templates: the table's columns and the new template's row"
else
    notok "dump templates: the table's columns and the new template's row" "$(head -n 3 "$T/t.txt")"
fi

# --json: the same records, every field but the password; env values masked
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates --json >"$T/t.json" 2>"$T/t.jerr"
rc=$?
gotj=$(python3 -c 'import json,sys; print(" ".join(str(t["id"]) for t in json.load(open(sys.argv[1]))))' "$T/t.json" 2>&1)
if [ $rc -eq 0 ] && [ "$gotj" = "$want" ] && grep -q '"docker_login_user": "bob"' "$T/t.json"; then
    ok "dump templates --json: the same records with their fields"
else
    notok "dump templates --json: the same records with their fields" "rc=$rc want '$want' got '$gotj'"
fi
if ! grep -qF "$PASS" "$T/t.json" "$T/t.txt" "$T/t.err" "$T/t.jerr" && ! grep -q 'docker_login_pass' "$T/t.json" &&
   ! grep -q 'hf_integ_value' "$T/t.json" "$T/t.txt"; then
    ok "dump templates: no registry password, no env value"
else
    notok "dump templates: no registry password, no env value" "$(grep -m2 -E 'docker_login_pass|hf_integ' "$T/t.json")"
fi

# --query: one search with the parsed select_filters (the CLI's search templates)
before=$(requests /api/v0/template/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates --json --query 'recommended=true name!=TensorFlow' \
    >"$T/q.json" 2>"$T/q.err"
rc=$?
after=$(requests /api/v0/template/)
sent=$(curl -fsS "$SIM_URL/__sim/state" | python3 -c 'import json,sys,urllib.parse; q=json.load(sys.stdin)["requests"]["/api/v0/template/"]["last_query"]; print(json.dumps(json.loads(urllib.parse.parse_qs(q)["select_filters"][0]), sort_keys=True))')
names=$(python3 -c 'import json,sys; print("|".join(sorted(t["name"] for t in json.load(open(sys.argv[1])))))' "$T/q.json" 2>&1)
if [ $rc -eq 0 ] && [ $((after - before)) -eq 1 ] &&
   [ "$sent" = '{"name": {"neq": "TensorFlow"}, "recommended": {"eq": true}}' ] &&
   [ "$names" = "PyTorch (CUDA 12.1)|vLLM OpenAI server" ]; then
    ok "dump templates --query: one search with the query's select_filters"
else
    notok "dump templates --query: one search with the query's select_filters" "rc=$rc searches $((after - before)) sent $sent names $names" "$(cat "$T/q.err")"
fi

# exit statuses: a bad query 2 (nothing sent), a refused key 3, a broken or gone service 4
before=$(requests /api/v0/template/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates --query 'gpu_name=x' >/dev/null 2>"$T/e2.err"; rc=$?
after=$(requests /api/v0/template/)
if [ $rc -eq 2 ] && [ "$before" = "$after" ] && grep -q 'rentop: --query' "$T/e2.err"; then
    ok "dump templates: a query on no template field exits 2, nothing sent"
else
    notok "dump templates: a query on no template field exits 2, nothing sent" "rc=$rc" "$(cat "$T/e2.err")"
fi
(umask 077; echo "not-a-key-0000" >"$T/badkey")
"$RENTOP" --url "$SIM_URL" --api-key-file "$T/badkey" --dump templates >/dev/null 2>"$T/e3.err"; rc=$?
if [ $rc -eq 3 ]; then ok "dump templates: a refused key exits 3"; else notok "dump templates: a refused key exits 3" "rc=$rc" "$(cat "$T/e3.err")"; fi
fault /api/v0/template/ malformed 1
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates --query 'recommended=true' >/dev/null 2>"$T/e4.err"; rc=$?
if [ $rc -eq 4 ]; then ok "dump templates: a broken answer exits 4"; else notok "dump templates: a broken answer exits 4" "rc=$rc" "$(cat "$T/e4.err")"; fi
url=$SIM_URL
stop_sim
"$RENTOP" --url "$url" --api-key-file "$KEYFILE" --dump templates >/dev/null 2>"$T/e5.err"; rc=$?
if [ $rc -eq 4 ]; then ok "dump templates: no service exits 4"; else notok "dump templates: no service exits 4" "rc=$rc" "$(cat "$T/e5.err")"; fi

finish
