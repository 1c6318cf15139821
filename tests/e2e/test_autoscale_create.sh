#!/bin/sh
# test_autoscale_create.sh: the autoscaler edits of the serverless view (4)
# that create and remove, against rentop-sim (screen and /__sim/state):
# create an endpoint (defaults sent), then a workergroup on it from a
# template (a bad hash refused in the form first); suspend and resume an
# endpoint after a confirmation; delete an endpoint after the confirmation
# naming it and its workergroup; an edit whose answer is lost is sent once,
# and the list read again says it took effect (test_forms_lost.sh: every
# write form).  Helpers: autoscale_lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x40 || { echo "not ok - rentop starts"; exit 1; }

t_create() {
    fresh || return 1
    w0=$(writes)
    keys c
    wait_for "Create an endpoint" 10 || return 1
    type_text "e2e-ep"
    keys C-s
    sim_expect "[e['endpoint_name'] for e in d['endpoints']][-1]" e2e-ep 20 || return 1
    sim_expect "[(e['min_load'], e['target_util'], e['cold_workers'], e['max_workers']) for e in d['endpoints'] if e['endpoint_name'] == 'e2e-ep'][0] == (0.0, 0.9, 5, 20)" true || return 1
    e=$(ep_id e2e-ep)
    wait_for "e2e-ep ($e)" 40 || return 1
    select_endpoint e2e-ep
    keys a
    wait_for "New workergroup on e2e-ep ($e)" 10 || return 1
    type_text "not-a-hash"
    keys C-s
    wait_for "a template hash is 32" 10 || return 1
    [ "$(writes)" = $((w0 + 1)) ] || { fail "a bad template hash was sent"; return 1; }
    h=$(sim_state "d['templates'][0]['hash_id']")
    set_field "$h"
    keys Tab Tab Tab Tab Tab Tab Tab    # template_id min_load target_util cold_mult test_workers gpu_ram -> query
    set_field "gpu_ram>=40 num_gpus=1"
    keys C-s
    sim_expect "[(w['template_hash'], w['search_query']) for w in d['workergroups'] if w['endpoint_id'] == $e] == [('$h', 'gpu_ram>=40 num_gpus=1')]" true 20 || return 1
    g=$(wg_of "$e")
    wait_for "wg $g " 40
}
t_suspend() {
    fresh || return 1
    e=$(ep_id sdxl-gen)
    select_endpoint sdxl-gen
    keys s
    wait_for_flat "Suspend endpoint sdxl-gen ($e)?" 10 || return 1
    keys Tab Enter
    sim_expect "$(printf "next(x['endpoint_state'] for x in d['endpoints'] if x['id'] == %s)" "$e")" suspended 20 || return 1
    body_is "/api/v0/endptjobs/$e/" "{'endpoint_state': 'suspended'}" || return 1
    wait_for_re "sdxl-gen \\($e\\) +suspended" 40 || return 1
    keys s
    wait_for_flat "Resume endpoint sdxl-gen ($e)" 10 || return 1
    keys Tab Enter
    sim_expect "$(printf "next(x['endpoint_state'] for x in d['endpoints'] if x['id'] == %s)" "$e")" active 20
}
t_delete() {
    fresh || return 1
    e=$(ep_id e2e-ep)
    g=$(wg_of "$e")
    select_endpoint e2e-ep
    keys d
    wait_for_flat "Delete endpoint e2e-ep ($e)?" 10 || return 1
    wait_for_flat "1 workergroup ($g)" 5 || return 1
    keys Tab Enter
    sim_expect "any(x['id'] == $e for x in d['endpoints'])" false 20 || return 1
    sim_expect "(d['requests'].get('/api/v0/endptjobs/$e/') or {}).get('methods', {}).get('DELETE')" 1 || return 1
    wait_gone "e2e-ep ($e)" 40
}
t_lost() {
    fresh || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys e
    wait_for "Edit endpoint llm-chat ($e)" 10 || return 1
    # the service acts, then the connection closes with no answer
    sim_fault "/api/v0/endptjobs/$e/" lost 1 || return 1
    set_field 15          # min_load
    keys C-s
    # the form locks, the list is read again and says the change is there
    wait_for_flat "endpoint llm-chat ($e) holds the new values: changed" 20 || return 1
    not_on_screen "Edit endpoint llm-chat" || return 1
    sim_expect "next(x['min_load'] for x in d['endpoints'] if x['id'] == $e)" 15.0 || return 1
    keys C-s
    sleep 3
    n=$(sim_state "(d['requests'].get('/api/v0/endptjobs/$e/') or {}).get('methods', {}).get('PUT')")
    [ "$n" = 1 ] || { fail "the edit went $n times"; return 1; }
}

tap "autoscale: the serverless view shows the simulator's endpoints" t_view
tap "autoscale: create an endpoint, then a workergroup from a template (bad hash refused)" t_create
tap "autoscale: suspend and resume an endpoint after a confirmation" t_suspend
tap "autoscale: delete an endpoint after the confirmation naming its workergroup" t_delete
tap "autoscale: an edit whose answer is lost is never resent; the re-read says it took effect" t_lost
e2e_done
