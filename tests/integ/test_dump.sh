#!/bin/sh
# test_dump.sh: `rentop --dump` against rentop-sim: all 1,000 instances
# (unpaced: parallel id ranges, 40-49 requests, ids ascending and unique;
# paced: 40 v1 pages in sequence), 503s and a 429 in the middle of the
# parallel read, the spec and retired v0 lists, the other resources,
# tables, secrets kept out of JSON, and usage errors.
. "$(dirname "$0")/corenet_lib.sh"

start_sim --seed 11 --instances 1000 --endpoints 0 --rate-limits off || { notok "simulator starts"; exit 1; }

# ids FILE: the top-level records' ids, in order, one a line.
ids() {
    sed -n 's/^    "id": \([0-9-]*\),*$/\1/p' "$1"
}
# ascending_unique FILE: the ids strictly ascending (so each once)?
ascending_unique() {
    ids "$1" | awk 'NR > 1 && $1 + 0 <= prev + 0 { bad = 1 } { prev = $1 } END { exit bad }'
}
# sim_fault BODY: a fault through the control API (with "skip", which the
# fault helper does not take).
sim_fault() {
    curl -fsS -X POST -H 'Content-Type: application/json' -d "$1" "$SIM_URL/__sim/fault" >/dev/null
}

# 1,000 instances unpaced (the simulator's limits are off): the first page,
# a probe of the highest id, then 8 id ranges read in parallel (5 or 6
# pages each): 40 to 49 requests, every id once, ascending
before=$(requests /api/v1/instances/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances --json \
    >"$T/all.json" 2>"$T/all.err"
rc=$?
after=$(requests /api/v1/instances/)
n=$(records "$T/all.json")
uniq=$(grep '^    "id": ' "$T/all.json" | sort -u | wc -l)
if [ $rc -eq 0 ] && [ "$n" -eq 1000 ] && [ "$uniq" -eq 1000 ]; then
    ok "dump instances --json returns all 1000 instances"
else
    notok "dump instances --json returns all 1000 instances" "rc=$rc records=$n unique=$uniq" "$(head -c 300 "$T/all.err")"
fi
req=$((after - before))
if [ "$req" -ge 40 ] && [ "$req" -le 49 ]; then
    ok "the unpaced 1000 instances took 40 to 49 v1 requests (parallel id ranges): $req"
else
    notok "the unpaced 1000 instances took 40 to 49 v1 requests (parallel id ranges)" "requests: $before -> $after"
fi
if ascending_unique "$T/all.json"; then
    ok "the parallel read's records come in ascending id order, each once"
else
    notok "the parallel read's records come in ascending id order, each once" "$(ids "$T/all.json" | head -n 5)"
fi

# paced (any --page-rate above 0): the one sequential pager, exactly 40 pages,
# the same ids in the same order
before=$(requests /api/v1/instances/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 1000 --dump instances --json \
    >"$T/seq.json" 2>"$T/seq.err"
rc=$?
after=$(requests /api/v1/instances/)
if [ $rc -eq 0 ] && [ $((after - before)) -eq 40 ] && [ "$(ids "$T/seq.json")" = "$(ids "$T/all.json")" ]; then
    ok "a paced dump takes exactly 40 pages in sequence, the same ids in the same order"
else
    notok "a paced dump takes exactly 40 pages in sequence, the same ids in the same order" "rc=$rc requests $before -> $after" "$(head -c 300 "$T/seq.err")"
fi

# a 503 in the middle of the parallel read: retried by the one rule, the dump complete
sim_fault '{"path":"/api/v1/instances","kind":"503","count":2,"skip":6}'
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances --json \
    >"$T/f503.json" 2>"$T/f503.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(records "$T/f503.json")" -eq 1000 ] && ascending_unique "$T/f503.json" &&
    [ "$(ids "$T/f503.json")" = "$(ids "$T/all.json")" ]; then
    ok "two 503s in the middle of the parallel read: still every instance, each once, in order"
else
    notok "two 503s in the middle of the parallel read: still every instance, each once, in order" "rc=$rc records=$(records "$T/f503.json")" "$(head -c 300 "$T/f503.err")"
fi
# the plain table takes the same path
sim_fault '{"path":"/api/v1/instances","kind":"503","count":1,"skip":9}'
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances \
    >"$T/f503.txt" 2>"$T/f503t.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <"$T/f503.txt")" -eq 1001 ] &&
    [ "$(sed 1d "$T/f503.txt" | awk '{ print $1 }' | sort -un | wc -l)" -eq 1000 ] &&
    [ "$(sed 1d "$T/f503.txt" | awk '{ print $1 }')" = "$(sed 1d "$T/f503.txt" | awk '{ print $1 }' | sort -n)" ]; then
    ok "a 503 in the middle of the parallel read of the table: 1000 rows, ids ascending"
else
    notok "a 503 in the middle of the parallel read of the table: 1000 rows, ids ascending" "rc=$rc" "$(head -c 300 "$T/f503t.err")"
fi

if ! grep -qE '"(instance_api_key|api_key|jupyter_token)"' "$T/all.json"; then
    ok "no secret fields in --json output"
else
    notok "no secret fields in --json output" "$(grep -m1 -E '"(instance_api_key|api_key|jupyter_token)"' "$T/all.json")"
fi
if ! grep -q "$SIM_KEY" "$T/all.json" "$T/all.err"; then
    ok "the API key is not in the output"
else
    notok "the API key is not in the output"
fi

# the plain table: a header (the dashboard's columns, in its order) and one line per instance
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances \
    >"$T/table.txt" 2>"$T/table.err"
rc=$?
lines=$(wc -l <"$T/table.txt")
if [ $rc -eq 0 ] && [ "$lines" -eq 1001 ] && head -n 1 "$T/table.txt" | grep -q '^ID  *LABEL  *STATUS  *GPUS  *UTIL  *\$/H  *AGE  *SSH  *IMAGE  *MACHINE  *LOCATION  *RELIAB  *UPTIME$'; then
    ok "dump instances prints an aligned table"
else
    notok "dump instances prints an aligned table" "rc=$rc lines=$lines" "$(head -n 2 "$T/table.txt")"
fi

# the key through the environment works the same (and is not echoed)
VAST_API_KEY="$SIM_KEY" "$RENTOP" --url "$SIM_URL" --dump user >"$T/user.txt" 2>"$T/user.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^email ' "$T/user.txt" && ! grep -q "$SIM_KEY" "$T/user.txt" "$T/user.err"; then
    ok "dump user (key from VAST_API_KEY) prints fields, never the key"
else
    notok "dump user (key from VAST_API_KEY) prints fields, never the key" "rc=$rc" "$(head -n 3 "$T/user.txt" "$T/user.err")"
fi
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump user --json >"$T/user.json" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '"email"' "$T/user.json" && ! grep -q '"api_key"' "$T/user.json"; then
    ok "dump user --json drops api_key"
else
    notok "dump user --json drops api_key" "rc=$rc"
fi

# VAST_URL is honoured like the official CLI
VAST_URL="$SIM_URL" "$RENTOP" --api-key-file "$KEYFILE" --dump workergroups --json >"$T/wg.json" 2>"$T/wg.err"
rc=$?
if [ $rc -eq 0 ] && head -c 1 "$T/wg.json" | grep -q '\['; then
    ok "dump workergroups via VAST_URL"
else
    notok "dump workergroups via VAST_URL" "rc=$rc" "$(head -c 300 "$T/wg.err")"
fi

"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump offers --query 'num_gpus>=2 verified=any' --json >"$T/offers.json" 2>"$T/offers.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(records "$T/offers.json")" -gt 0 ] && ! grep -q '"num_gpus": 1,' "$T/offers.json"; then
    ok "dump offers --query filters offers"
else
    notok "dump offers --query filters offers" "rc=$rc" "$(head -c 300 "$T/offers.err")"
fi
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump offers --query 'num_gpus>=' >"$T/q.out" 2>"$T/q.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'query' "$T/q.err"; then
    ok "a bad --query exits 2 with a message"
else
    notok "a bad --query exits 2 with a message" "rc=$rc" "$(cat "$T/q.err")"
fi

# issue 12: an unknown field names the nearest one and exits 2, sending nothing
before=$(requests /api/v0/bundles/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump offers --query 'gpu_nam=RTX_4090' >"$T/q2.out" 2>"$T/q2.err"
rc=$?
after=$(requests /api/v0/bundles/)
if [ $rc -eq 2 ] && grep -q 'unknown field gpu_nam (did you mean gpu_name?)' "$T/q2.err" && [ "$before" -gt 0 ] && [ "$before" -eq "$after" ]; then
    ok "an unknown --query field exits 2 naming the nearest field, nothing sent"
else
    notok "an unknown --query field exits 2 naming the nearest field, nothing sent" "rc=$rc requests $before -> $after" "$(cat "$T/q2.err")"
fi

# the search line's options: order before limit, cheapest first
"$RENTOP" --url "$SIM_URL" --dump offers --query 'num_gpus>=1 -o dph+ --limit 5 -n' --json >"$T/o5.json" 2>"$T/o5.err"
rc=$?
prices=$(grep '^    "dph_total": ' "$T/o5.json" | sed 's/.*: //; s/,$//')
sorted=$(printf '%s\n' "$prices" | sort -g)
if [ $rc -eq 0 ] && [ "$(records "$T/o5.json")" -eq 5 ] && [ "$prices" = "$sorted" ]; then
    ok "dump offers --query with -o dph+ --limit 5 gives the 5 cheapest in order"
else
    notok "dump offers --query with -o dph+ --limit 5 gives the 5 cheapest in order" "rc=$rc" "$prices" "$(head -c 300 "$T/o5.err")"
fi

# issue 12: a 429 on the search waits at the published rate and retries
fault /api/v0/bundles/ 429 1
"$RENTOP" --url "$SIM_URL" --dump offers --query 'num_gpus>=1' --json >"$T/o429.json" 2>"$T/o429.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(records "$T/o429.json")" -gt 0 ] && grep -qE 'refused by the service \(429; about 10 searches a minute per address\): retrying in [678] s' "$T/o429.err"; then
    ok "dump offers waits out a 429 (saying so) instead of exiting 4"
else
    notok "dump offers waits out a 429 (saying so) instead of exiting 4" "rc=$rc" "$(cat "$T/o429.err")"
fi

# the table is mapped straight from the answer's bytes (json_stream_offers),
# --json prints the answer's own list: the same offers in the same order,
# also when a 429 came first (the table path's retry)
"$RENTOP" --url "$SIM_URL" --dump offers --query '-n --limit 150 -o dph+' --json >"$T/o150.json" 2>"$T/o150.err"
rc1=$?
fault /api/v0/bundles/ 429 1
"$RENTOP" --url "$SIM_URL" --dump offers --query '-n --limit 150 -o dph+' >"$T/o150.out" 2>"$T/o150t.err"
rc2=$?
jids=$(grep '^    "id": ' "$T/o150.json" | sed 's/.*: //; s/,$//' | tr '\n' ' ')
tids=$(tail -n +2 "$T/o150.out" | awk '{ print $1 }' | tr '\n' ' ')
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(records "$T/o150.json")" -eq 150 ] && [ "$jids" = "$tids" ] &&
    grep -q 'retrying in' "$T/o150t.err"; then
    ok "dump offers' table (mapped from the bytes) lists the --json answer's 150 offers in order, after a 429"
else
    notok "dump offers' table (mapped from the bytes) lists the --json answer's 150 offers in order, after a 429" \
        "rc=$rc1/$rc2" "$(echo "$jids" | head -c 200)" "$(echo "$tids" | head -c 200)" "$(cat "$T/o150t.err")"
fi

# templates: their own fields; a misspelt one is named
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates --query 'nam=x' >"$T/t2.out" 2>"$T/t2.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'did you mean name?' "$T/t2.err"; then
    ok "dump templates --query checks template fields"
else
    notok "dump templates --query checks template fields" "rc=$rc" "$(cat "$T/t2.err")"
fi

"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump templates >"$T/tpl.txt" 2>"$T/tpl.err"
rc=$?
if [ $rc -eq 0 ] && head -n 1 "$T/tpl.txt" | grep -q '^ID  *HASH_ID'; then
    ok "dump templates prints a table"
else
    notok "dump templates prints a table" "rc=$rc" "$(head -c 300 "$T/tpl.err")"
fi

# usage errors exit 2
"$RENTOP" --dump everything >/dev/null 2>"$T/u.err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'not one of' "$T/u.err"; then ok "an unknown --dump exits 2"; else notok "an unknown --dump exits 2" "rc=$rc"; fi
"$RENTOP" --api-key "$SIM_KEY" --dump user >/dev/null 2>"$T/u.err"; rc=$?
if [ $rc -eq 2 ] && ! grep -q "$SIM_KEY" "$T/u.err"; then ok "--api-key is refused without echoing the key"; else notok "--api-key is refused without echoing the key" "rc=$rc"; fi
out=$("$RENTOP" --version); rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -qE '^rentop [0-9]+\.[0-9]+'; then ok "--version"; else notok "--version" "$out"; fi

# the retired v0 list and the spec's v0 list: the client uses v1 either way
for mode in gone spec; do
    start_sim --seed 12 --instances 60 --endpoints 0 --rate-limits off --v0-list $mode || { notok "simulator starts (v0 $mode)"; continue; }
    "$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances --json >"$T/v0.json" 2>"$T/v0.err"
    rc=$?
    n=$(records "$T/v0.json")
    if [ $rc -eq 0 ] && [ "$n" -eq 60 ]; then
        ok "dump instances with --v0-list $mode"
    else
        notok "dump instances with --v0-list $mode" "rc=$rc records=$n" "$(head -c 300 "$T/v0.err")"
    fi
done

# an injected 429 in the middle of the parallel read: the read goes on in
# sequence at the published pace and still gives every instance once, in order
start_sim --seed 14 --instances 100 --endpoints 0 --rate-limits off || notok "simulator starts (100)"
sim_fault '{"path":"/api/v1/instances","kind":"429","count":1,"skip":3}'
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances --json >"$T/f429.json" 2>"$T/f429.err"
rc=$?
n=$(records "$T/f429.json")
if [ $rc -eq 0 ] && [ "$n" -eq 100 ] && ascending_unique "$T/f429.json"; then
    ok "a 429 in the middle of the parallel read: every instance, each once, in order"
else
    notok "a 429 in the middle of the parallel read: every instance, each once, in order" "rc=$rc records=$n" "$(head -c 300 "$T/f429.err")"
fi

# --page-rate 0 against the live limits: the fifth page back to back is
# refused (429); the dump slows to the published rate and finishes with
# every page (issue 13), the 429 retried, not fatal
start_sim --seed 13 --instances 300 --endpoints 0 --rate-limits on || notok "simulator starts (limits on)"
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump instances --json >"$T/rl.json" 2>"$T/rl.err"
rc=$?
n=$(records "$T/rl.json")
refused=$(curl -s "$SIM_URL/__sim/state" | python3 -c "import json,sys; print(json.load(sys.stdin)['rate_limits']['instances_list']['refused'])")
if [ $rc -eq 0 ] && [ "$n" -eq 300 ] && [ "$refused" -ge 1 ]; then
    ok "dump --page-rate 0 refused with 429 slows down and finishes (refused $refused)"
else
    notok "dump --page-rate 0 refused with 429 slows down and finishes" "rc=$rc records=$n refused=$refused" "$(head -c 300 "$T/rl.err")"
fi

finish
