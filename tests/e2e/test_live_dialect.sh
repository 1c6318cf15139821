#!/bin/sh
# test_live_dialect.sh: rentop against `rentop-sim --dialect live`, the
# documented live forms only (tests/sim/API.md): exact paths (anything else an
# HTML 404), the CLI's endpoint-log form with the account key in the body,
# the documented worker states, a result_url that answers 403 before the
# text.  Here: the serverless view flags an endpoint by what the docs mean
# (all IDLE: not flagged; all ERROR: flagged) and shows a workergroup's query
# given as the docs' object, an endpoint's log lines appear
# in the log view, an instance log whose result_url answers 403 twice and
# then the text shows the text, and the key is in neither --log nor stderr.
# Templates: create with the docs' required fields only; the account
# sections.  The table, every action, offers, create, 2FA, bulk batches and
# templates: those suites' own scripts run a second time against the live
# dialect as items of their own (tests/run.sh LIVE_E2E, reported as
# e2e/live-test_NAME).
. "$(dirname "$0")/lib.sh"

SIM_ARGS="--dialect live"
sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 200x40 --log "$E2E_TMP/rentop.log" || { echo "not ok - rentop starts"; exit 1; }

# The CLI's log request body, the key in a 0600 file (never on an argv).
(umask 077; printf '{"id":%s,"api_key":"%s","tail":1000}' \
    "$(sim_state "[e['id'] for e in d['endpoints'] if e['endpoint_name'] == 'llm-chat'][0]")" \
    "$SIM_KEY" >"$E2E_TMP/logbody.json")
printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
chmod 600 "$E2E_TMP/auth.hdr"

# simlog: llm-chat's whole log as the live run server gives it (info0).
simlog() {
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -X POST "$SIM_URL/get_endpoint_logs/" \
        --data-binary @"$E2E_TMP/logbody.json" |
        python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["info0"].rstrip("\n") + "\n")'
}

t_table() {
    wait_for "$(first_inst True)" 30 || return 1
    [ "$(sim_state "d['dialect']")" = live ] || { fail "the simulator is not in the live dialect"; return 1; }
    # the list the live service serves (v1, paths with their slash)
    [ "$(sim_state "count('/api/v1/instances/')")" -ge 1 ] || { fail "no v1 list request"; return 1; }
}

t_health() {
    sim_post /__sim/set '{"what":"endpoint","endpoint":"llm-chat","field":"workers","value":"idle"}' || return 1
    keys 4
    wait_for "Serverless:" 10 || return 1
    # whisper-asr: every worker in ERROR (seeded): flagged
    wait_for "whisper-asr: every worker" 30 || return 1
    # three worker rounds of the documented states: only that one flagged
    c=$(sim_state "count('get_endpoint_workers')")
    sim_expect "count('get_endpoint_workers') >= $((c + 6))" true 40 || return 1
    wait_for_re "Serverless 3 !1( |$)" 10 || return 1
    for e in llm-chat sdxl-gen; do
        screen | grep -qE "^ *$e: " && { fail "$e is flagged: $(screen | grep -E "^ *$e: ")"; return 1; }
    done
    # a workergroup's search_query comes as the docs' object: shown as a query
    l=$(line_with "wg $(sim_state "d['workergroups'][0]['id']") ")
    echo "$l" | grep -qE "query .*gpu_ram.*verified" || { fail "the workergroup's query is not shown: $l"; return 1; }
    keys 2
    wait_for "Events:" 10 || return 1
    for e in llm-chat sdxl-gen; do
        screen | grep -q "$e: no " && { fail "the event log flags $e: $(screen | grep "$e: no ")"; return 1; }
    done
    keys 4
    wait_for "Serverless:" 10
}

t_endpoint_logs() {
    keys 4
    wait_for "llm-chat (" 20 || return 1
    keys g
    keys L
    wait_for "Logs:  llm-chat" 10 || return 1
    last=$(simlog | tail -n 1 | cut -c1-60)
    [ -n "$last" ] || { fail "the simulator gave no log"; return 1; }
    wait_for "$last" 20 || return 1
    sim_post /__sim/set '{"what":"log","endpoint":"llm-chat","line":"E2E-LIVE-MARK"}' || return 1
    wait_for "E2E-LIVE-MARK" 15 || return 1
    keys q
    wait_gone "Logs:  llm-chat" 10
}

t_instance_log() {
    keys 1
    wait_for "Instances" 10 || return 1
    id=$(first_inst "x.get('actual_status') == 'running'")
    select_row "$id" || return 1
    n0=$(sim_state "count('/instance_logs/')")
    # the object store's 403 twice (live: also before the upload), then the text
    sim_fault /instance_logs/ 403 2 || return 1
    keys L
    wait_for "instance $id" 10 || return 1
    wait_for_re "epoch [0-9]+ step" 30 || return 1
    sim_expect "count('/instance_logs/') >= $((n0 + 3))" true 5
}

# back_to_table: close a log view (its footer says "q close"), dialogs, then 1.
back_to_table() {
    case $(screen) in *"q close"*) keys q; sleep 0.3 ;; esac
    keys Escape Escape 1
}

t_templates() {
    back_to_table
    wait_for "Instances" 10 || return 1
    keys :
    type_text "templates"
    keys Enter
    wait_for "Templates: 5" 20 || return 1
    # the docs require name and image only (SPEC.md also the registry fields)
    keys n
    wait_for "New template" 10 || return 1
    type_text "e2e-live-tpl"; keys Tab
    type_text "vastai/base-image"
    keys C-s
    wait_gone "New template" 20 || return 1
    sim_expect "[t['image'] for t in d['templates'] if t['name'] == 'e2e-live-tpl']" '["vastai/base-image"]' 20 || return 1
    wait_for "e2e-live-tpl" 20 || return 1
    keys Escape
}

t_account() {
    back_to_table
    keys 5
    wait_for "email verified" 20 || return 1
    on_screen "demo@example.com" || return 1
    # each section from its live path: env vars, API keys, SSH keys, roles
    keys ']'
    wait_for "HF_TOKEN" 20 || return 1
    keys ']'
    wait_gone "HF_TOKEN" 10 || return 1
    keys ']'
    keys ']'
    wait_for "PERMISSIONS" 10 || return 1
    wait_for "manager" 20 || return 1
    for p in /api/v0/secrets/ /api/v0/auth/apikeys/ /api/v0/ssh/ /api/v0/team/roles-full/ /api/v0/tfa/status/; do
        [ "$(sim_state "count('$p')")" -ge 1 ] || { fail "no request on $p"; return 1; }
    done
    no_secret_on_screen || return 1
    keys 1
}

t_no_key_written() {
    for f in "$E2E_TMP/rentop.log" "$E2E_TMP/rentop.stderr"; do
        [ -f "$f" ] || continue
        grep -qF -- "$SIM_KEY" "$f" && { fail "the API key is in $(basename "$f")"; return 1; }
    done
    [ -s "$E2E_TMP/rentop.log" ] || { fail "the --log file is empty"; return 1; }
    no_secret_on_screen
}

tap "live: the table comes from the v1 list" t_table
tap "live: all-IDLE workers are not flagged, the all-ERROR endpoint is" t_health
tap "live: an endpoint's log lines appear in the log view (the CLI's form)" t_endpoint_logs
tap "live: an instance log whose result_url answers 403 twice shows the text" t_instance_log
tap "live: template create with name and image only (the docs' required fields)" t_templates
tap "live: the account sections come from their live paths" t_account
tap "live: the key is in neither the --log file nor stderr" t_no_key_written
t_quit() { back_to_table; sleep 0.5; rentop_quit; }
tap "live: q quits with status 0" t_quit

e2e_done
