#!/bin/sh
# test_workers.sh: the workers of an endpoint (issue 24) against rentop-sim:
# Enter on an endpoint lists its workers (every worker of get_endpoint_workers
# by id and state, the endpoint's $/h as the sum of the workers' dph_total,
# the status message of a worker in ERROR); `:workers NAME` opens the same;
# Enter on a worker opens its instance's detail (a worker is an instance
# of the account, listed), Esc returns to the workers, L opens its
# container log; L on a workergroup opens the workergroup's log; the
# endpoint form sends the new autoscaler fields (checked in /__sim/state);
# `:update-workers NAME` confirms, then sends update_workers once; a lost
# answer is said and not sent again; --read-only refuses it.  The
# workergroup edit form picks its template with the template picker.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 200x40 || { echo "not ok - rentop starts"; exit 1; }

printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
chmod 600 "$E2E_TMP/auth.hdr"

# workers_json ID: the simulator's get_endpoint_workers answer for endpoint ID.
workers_json() {
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -X POST -d "{\"id\":$1}" \
        "$SIM_URL/get_endpoint_workers/" >"$E2E_TMP/workers.json"
}
# wk EXPR: EXPR over that answer (as ws).
wk() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ws = d if isinstance(d, list) else (d.get("workers") or d.get("results") or [])
v = eval(sys.argv[2], {"ws": ws})
print(v if not isinstance(v, list) else "\n".join(str(x) for x in v))
' "$E2E_TMP/workers.json" "$1"
}

t_list() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: 3 endpoints" 20 || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys Enter
    wait_for "Workers of llm-chat ($e)" 10 || return 1
    workers_json "$e"
    n=$(wk "len(ws)")
    cost=$(wk "'%.3f' % sum(w['dph_total'] for w in ws)")
    wait_for "$n workers, \$$cost/h" 20 || { screen_dump; return 1; }
    for id in $(wk "[w['id'] for w in ws]"); do
        l=$(line_with " $id ")
        [ -n "$l" ] || { fail "no row for worker $id"; screen_dump; return 1; }
        gpu=$(wk "[w['gpu_name'] for w in ws if w['id'] == $id][0]")
        echo "$l" | grep -qF "$gpu" || { fail "worker $id row lacks its GPU $gpu: $l"; return 1; }
    done
    for col in state load avg perf measured reqs "disk GB" reliab uptime gpu '$/h' instance; do
        on_screen "$col" || return 1
    done
    # the states, as the simulator gives them right now (a row's state cell)
    st=$(wk "ws[0]['status']")
    id=$(wk "ws[0]['id']")
    wait_for_re " $id +[A-Z_]+ " 10 || return 1
    case $st in [A-Z]*) ;; *) fail "odd state $st"; return 1 ;; esac
}

t_error_msg() {
    keys q
    wait_for "Serverless: " 10 || return 1
    cmd "workers whisper-asr"
    e=$(ep_id whisper-asr)
    wait_for "Workers of whisper-asr ($e)" 10 || return 1
    wait_for " ERROR " 20 || return 1
    wait_for "out of memory" 10
}

t_enter_and_log() {
    keys g
    e=$(ep_id whisper-asr)
    workers_json "$e"
    inst=$(wk "ws[0]['instance_id']")
    # a worker is an instance of the account: listed, naming its endpoint
    [ "$(sim_state "inst($inst)['endpoint_id']")" = "$e" ] || { fail "worker $inst is not an instance of endpoint $e"; return 1; }
    keys Enter
    wait_for "Instance $inst  (Esc" 10 || { screen_dump; return 1; }
    not_on_screen "is not in the instance list" || return 1
    keys Escape
    wait_for "Workers of whisper-asr ($e)" 10 || return 1
    before=$(sent PUT "/api/v0/instances/request_logs/$inst/")
    keys L
    wait_for "instance $inst" 10 || return 1
    wait_for "Logs:" 10 || return 1
    sim_expect "sum(v['methods'].get('PUT', 0) for k, v in d['requests'].items() if k.rstrip('/') == '/api/v0/instances/request_logs/$inst')" $((before + 1)) 20
}

t_wg_log() {
    keys 4
    wait_for "Serverless: " 10 || return 1
    e=$(ep_id llm-chat)
    g=$(wg_of "$e")
    select_endpoint llm-chat
    keys Down L
    wait_for "wg $g (llm-chat)" 10 || return 1
    sim_expect "sum(v['methods'].get('POST', 0) for k, v in d['requests'].items() if 'autogroup_logs' in k or 'workergroup_logs' in k) > 0" true 20 || return 1
    wait_for_re "[0-9]+ lines" 20
}

t_form_fields() {
    keys 4
    fresh || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys e
    wait_for "Edit endpoint llm-chat ($e)" 10 || return 1
    wait_for "min_cold_load" 5 || return 1
    on_screen "inactivity_timeout" || return 1
    keys Tab Tab Tab Tab Tab   # -> min_cold_load
    set_field 3
    keys Tab Tab Tab           # -> inactivity_timeout
    set_field 600
    keys Tab                   # -> name
    set_field llm-chat-2
    keys C-s
    body_is "/api/v0/endptjobs/$e/" "{'min_cold_load': 3.0, 'inactivity_timeout': 600, 'endpoint_name': 'llm-chat-2'}" || return 1
    sim_expect "next(x['inactivity_timeout'] for x in d['endpoints'] if x['id'] == $e)" 600 20 || return 1
    wait_for "llm-chat-2 ($e)" 30 || return 1
    # and the state: stopped
    select_endpoint llm-chat-2
    keys e
    wait_for "Edit endpoint llm-chat-2" 10 || return 1
    keys BTab                  # -> state (the last field)
    set_field paused
    keys C-s
    wait_for "active, suspended or stopped" 10 || return 1
    set_field stopped
    keys C-s
    sim_expect "next(x['endpoint_state'] for x in d['endpoints'] if x['id'] == $e)" stopped 20 || return 1
    wait_for_re "llm-chat-2 \\($e\\) +stopped" 30
}

t_wg_pick() {
    fresh || return 1
    e=$(ep_id sdxl-gen)
    g=$(wg_of "$e")
    tname=$(sim_state "next(t['name'] for t in d['templates'] if t.get('recommended') and sum(1 for u in d['templates'] if t['name'].lower() in u['name'].lower()) == 1)")
    hash=$(sim_state "next(t['hash_id'] for t in d['templates'] if t['name'] == '$tname')")
    image=$(sim_state "next(t['image'] for t in d['templates'] if t['name'] == '$tname')")
    [ -n "$hash" ] || { fail "no template to pick"; return 1; }
    select_endpoint sdxl-gen
    keys Down e
    wait_for "Edit workergroup $g" 10 || return 1
    keys BTab                  # the template hash, last
    keys Enter
    wait_for "Pick a template" 10 || return 1
    type_text "$tname"
    wait_for "$image" 20 || return 1
    keys Enter
    wait_gone "Pick a template" 10 || return 1
    wait_for "template $tname picked" 5 || return 1
    keys C-s
    body_is "/api/v0/workergroups/$g/" "{'template_hash': '$hash'}" || return 1
    sim_expect "next(w['template_hash'] for w in d['workergroups'] if w['id'] == $g)" "$hash" 20
}

t_update() {
    fresh || return 1
    e=$(ep_id sdxl-gen)
    g=$(wg_of "$e")
    w0=$(sent POST /update_workers/)
    cmd "update-workers sdxl-gen"
    wait_for_flat "Update the workers of workergroup $g (endpoint sdxl-gen)?" 10 || return 1
    keys Enter                 # starts on Cancel
    wait_gone "Update the workers" 10 || return 1
    sleep 1
    [ "$(sent POST /update_workers/)" = "$w0" ] || { fail "Cancel sent update_workers"; return 1; }
    cmd "update-workers sdxl-gen"
    wait_for_flat "Update the workers of workergroup $g" 10 || return 1
    keys Tab Enter
    said "its workers are being updated" 20 || return 1
    sim_expect "(d['requests'].get('/update_workers/') or {}).get('last_body', {}).get('workergroup_id')" "$g" 20 || return 1
    sleep 2
    [ "$(sent POST /update_workers/)" = $((w0 + 1)) ] || { fail "update_workers sent $(sent POST /update_workers/) times"; return 1; }
    # the workers roll: one shows UPDATING
    cmd "workers sdxl-gen"
    wait_for " UPDATING " 30
}

t_update_lost() {
    keys q
    fresh || return 1
    e=$(ep_id sdxl-gen)
    g=$(wg_of "$e")
    w0=$(sent POST /update_workers/)
    fault /update_workers/ POST lost
    cmd "update-workers $g"
    wait_for_flat "Update the workers of workergroup $g" 10 || return 1
    keys Tab Enter
    said "the answer was lost" 30 || return 1
    sleep 5
    [ "$(sent POST /update_workers/)" = $((w0 + 1)) ] || { fail "a lost update_workers was sent again: $(sent POST /update_workers/) - $w0"; return 1; }
    not_on_screen "Update the workers" 
}

t_readonly() {
    fresh
    keys 1
    wait_for "Instances" 10 || return 1
    rentop_quit || return 1
    tm kill-server >/dev/null 2>&1
    rentop_start -s 200x40 --read-only || return 1
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: " 20 || return 1
    wait_for "every worker" 20 || return 1
    sleep 1
    w0=$(sent POST /update_workers/)
    cmd "update-workers sdxl-gen"
    wait_for "read-only mode: update-workers is disabled" 10 || return 1
    not_on_screen "Update the workers" || return 1
    keys g U
    wait_for "read-only mode: update-workers is disabled" 10 || return 1
    sleep 1
    [ "$(sent POST /update_workers/)" = "$w0" ] || { fail "read-only mode sent update_workers"; return 1; }
    # the workers list is a read: it works
    select_endpoint llm-chat
    keys Enter
    wait_for "Workers of " 10
}

tap "workers: Enter on an endpoint lists every worker, its GPU, and the summed \$/h" t_list
tap "workers: :workers NAME; a worker in ERROR shows its message" t_error_msg
tap "workers: Enter on a worker opens its instance's detail, Esc returns; L opens its container log" t_enter_and_log
tap "workers: L on a workergroup follows the workergroup's log" t_wg_log
tap "workers: the endpoint form sends min_cold_load, inactivity_timeout, a rename, the state" t_form_fields
tap "workers: the workergroup edit form picks a new template (only its hash sent)" t_wg_pick
tap "workers: :update-workers confirms (Cancel first) and sends update_workers once" t_update
tap "workers: a lost update_workers answer is said and never sent again" t_update_lost
tap "workers: --read-only refuses update-workers; the list still reads" t_readonly
e2e_done
