#!/bin/sh
# test_serverless.sh: the serverless view (4) shows the simulator's endpoints
# and workergroups (names and numbers checked against /__sim/state and the
# workergroup list), worker health per endpoint with the all-ERROR endpoint
# flagged in the header tab and said once in the event log, collapses and
# expands, opens a workergroup's detail with api_key <hidden>, polls workers
# every 10 s while shown and every 60 s while hidden (so an endpoint in
# error is said unseen), and a 429 on the workers call keeps the view.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -t -s 200x40 || { echo "not ok - rentop starts"; exit 1; }

# The workergroup list as the service gives it (the key from a file, not argv).
printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
chmod 600 "$E2E_TMP/auth.hdr"
curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" "$SIM_URL/api/v0/workergroups/" >"$E2E_TMP/wg.json"

# wg EXPR: evaluate EXPR over the workergroup list (as wgs).
wg() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
wgs = d if isinstance(d, list) else (d.get("results") or d.get("workergroups") or [])
v = eval(sys.argv[2], {"wgs": wgs})
print(v if not isinstance(v, list) else "\n".join(str(x) for x in v))
' "$E2E_TMP/wg.json" "$1"
}

# ep EXPR: evaluate EXPR over the endpoints of one /__sim/state read (as eps).
ep() {
    python3 -c '
import json, sys
eps = json.load(open(sys.argv[1]))["endpoints"]
print(eval(sys.argv[2], {"eps": eps}))
' "$E2E_TMP/state.json" "$1"
}

t_endpoints() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless:" 10 || return 1
    sim_get /__sim/state >"$E2E_TMP/state.json"
    n=$(ep "len(eps)")
    wait_for "Serverless: $n endpoints" 20 || return 1
    for i in $(seq 0 $((n - 1))); do
        en=$(ep "eps[$i]['endpoint_name']")
        id=$(ep "eps[$i]['id']")
        st=$(ep "eps[$i]['endpoint_state']")
        ml=$(ep "'%g' % eps[$i]['min_load']")
        cw=$(ep "eps[$i]['cold_workers']")
        mw=$(ep "eps[$i]['max_workers']")
        l=$(line_with "$en ($id)")
        [ -n "$l" ] || { fail "no row for endpoint $en ($id)"; screen_dump; return 1; }
        for want in "$st" "min_load $ml" "cold_workers $cw max_workers $mw"; do
            echo "$l" | grep -qF -- "$want" || { fail "row of $en lacks '$want': $l"; return 1; }
        done
    done
}

t_workergroups() {
    nw=$(wg "len(wgs)")
    [ "$nw" -ge 1 ] || { fail "the simulator has no workergroup"; return 1; }
    wait_for "$nw workergroups" 10 || return 1
    for id in $(wg "[w['id'] for w in wgs]"); do
        l=$(line_with "wg $id ")
        [ -n "$l" ] || { fail "no row for workergroup $id"; screen_dump; return 1; }
        q=$(wg "[w.get('search_query') or w.get('search_params') for w in wgs if w['id'] == $id][0]")
        echo "$l" | grep -qF -- "gpu_ram $(wg "['%g' % w['gpu_ram'] for w in wgs if w['id'] == $id][0]")" ||
            { fail "gpu_ram of wg $id: $l"; return 1; }
        echo "$l" | grep -qF -- "$q" || { fail "query of wg $id ('$q'): $l"; return 1; }
        # the template's name, from the simulator's templates
        h=$(wg "[w.get('template_hash') for w in wgs if w['id'] == $id][0]")
        tn=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([t["name"] for t in d["templates"] if t["hash_id"] == sys.argv[2]][0])' "$E2E_TMP/state.json" "$h")
        echo "$l" | grep -qF -- "template $tn" || { fail "template name '$tn' of wg $id: $l"; return 1; }
    done
}

t_health() {
    # whisper-asr has every worker in ERROR (seeded): flagged, said once
    wait_for "whisper-asr: every worker" 30 || return 1
    wait_for_re "Serverless 3 !1" 10 || return 1
    l=$(line_with "llm-chat (")
    echo "$l" | grep -qE "[0-9]+ ready( [0-9]+ [a-z_]+)* +load [0-9]+/[0-9]+" ||
        { fail "no worker health on llm-chat: $l"; return 1; }
    # two more worker rounds, then the event log holds the flag once
    c=$(sim_state "count('get_endpoint_workers')")
    sim_expect "count('get_endpoint_workers') >= $((c + 3))" true 30 || return 1
    keys 2
    wait_for "Events:" 10 || return 1
    n=$(screen | grep -c "whisper-asr: every worker")
    [ "$n" = 1 ] || { fail "the flag is in the event log $n times"; screen_dump; return 1; }
    keys 4
    wait_for "Serverless:" 10
}

t_collapse() {
    keys g
    l=$(line_with "llm-chat (")
    wgid=$(wg "[w['id'] for w in wgs if w['endpoint_name'] == 'llm-chat'][0]")
    on_screen "wg $wgid " || return 1
    keys -- -
    wait_gone "wg $wgid " 10 || return 1
    keys +
    wait_for "wg $wgid " 10 || return 1
    keys Space
    wait_gone "wg $wgid " 10 || return 1
    keys Space
    wait_for "wg $wgid " 10
}

t_detail() {
    wgid=$(wg "[w['id'] for w in wgs if w['endpoint_name'] == 'llm-chat'][0]")
    keys g Down Enter
    wait_for "Workergroup $wgid" 10 || return 1
    wait_for "api_key" 10 || return 1
    l=$(line_with "api_key")
    echo "$l" | grep -qF "<hidden>" || { fail "api_key line: $l"; return 1; }
    for k in $(ep "' '.join(e['api_key'] for e in eps)"); do
        screen | grep -qF -- "$k" && { fail "an endpoint api_key is on screen"; return 1; }
    done
    on_screen "search_query" || return 1
    keys q
    wait_for "Serverless:" 10
}

t_only_shown() {
    keys 1
    wait_gone "Serverless:" 10 || return 1
    sleep 2
    c=$(sim_state "count('get_endpoint_workers')")
    # hidden: every 60 s, not every 10 s (30 s on rentop's clock: none due)
    clock_advance 30 || return 1
    sleep 1.5
    c2=$(sim_state "count('get_endpoint_workers')")
    [ "$c" = "$c2" ] || { fail "workers fetched every 10 s while the view is hidden ($c -> $c2)"; return 1; }
    # 35 s more: one fetch an endpoint (the error flag still reaches the events)
    clock_advance 35 || return 1
    neps=$(sim_state "len(d['endpoints'])")
    sim_expect "count('get_endpoint_workers') > $c2" true 10 || return 1
    sleep 1.5
    c3=$(sim_state "count('get_endpoint_workers')")
    [ $((c3 - c2)) -le "$neps" ] || { fail "hidden: $((c3 - c2)) fetches for $neps endpoints"; return 1; }
    keys 4
    sim_expect "count('get_endpoint_workers') > $c3" true 15
}

t_429() {
    # the fresh figures first (the jump above aged the last ones)
    wait_gone "(stale " 15 || return 1
    sim_fault /get_endpoint_workers 429 40
    # stale 30 s after the last answer: rentop's clock jumps past it
    clock_until 31 has "(stale " || { screen_dump; return 1; }
    on_screen "llm-chat (" || return 1
    l=$(line_with "llm-chat (")
    echo "$l" | grep -qE "[0-9]+ ready" || { fail "a 429 blanked the health: $l"; return 1; }
    keys -- -
    keys +
    on_screen "Serverless:"
}

tap "serverless view: every endpoint of the simulator with state, min_load, cold_workers, max_workers" t_endpoints
tap "serverless view: every workergroup with gpu_ram, query and the template's name" t_workergroups
tap "serverless view: worker health; the all-ERROR endpoint flagged in the header, said once" t_health
tap "serverless view: - + Space collapse and expand an endpoint" t_collapse
tap "serverless view: Enter on a workergroup opens its detail, api_key <hidden>" t_detail
tap "serverless view: workers fetched every 10 s while shown, every 60 s while hidden" t_only_shown
tap "serverless view: a 429 on the workers call keeps the view, marked stale" t_429
e2e_done
