#!/bin/sh
# test_autoscale.sh: the autoscaler edits of the serverless view (4) against
# rentop-sim, checked on the screen and in /__sim/state: a workergroup edit
# reaches the simulator with only the changed field and the row shows the new
# value; an endpoint edit refuses an out-of-range and an inconsistent value in
# the open form (nothing sent) and then PUTs only what changed; a refusal of
# the service stays in the open form with what was typed; Esc on a form and
# Cancel (the default) on a delete send nothing; --read-only hides the keys
# and refuses them.  Create, suspend and delete: test_autoscale_create.sh;
# the helpers: autoscale_lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x40 || { echo "not ok - rentop starts"; exit 1; }

t_wg_edit() {
    fresh || return 1
    e=$(ep_id llm-chat)
    g=$(wg_of "$e")
    select_endpoint llm-chat
    keys Down e
    wait_for "Edit workergroup $g" 10 || return 1
    w0=$(writes)
    keys Tab Tab Tab Tab    # min_load target_util cold_mult test_workers -> gpu_ram
    set_field 48
    keys C-s
    body_is "/api/v0/workergroups/$g/" "{'gpu_ram': 48.0}" || return 1
    sim_expect "next(w['gpu_ram'] for w in d['workergroups'] if w['id'] == $g)" 48.0 || return 1
    [ "$(writes)" = $((w0 + 1)) ] || { fail "more than one write: $w0 -> $(writes)"; return 1; }
    wait_gone "Edit workergroup" 10 || return 1
    wait_for "wg $g  template" 5 || return 1
    wait_for_re "wg $g .*gpu_ram 48 " 20
}
t_ep_validation() {
    fresh || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys e
    wait_for "Edit endpoint llm-chat ($e)" 10 || return 1
    w0=$(writes)
    keys Tab              # target_util
    set_field 1.5
    keys C-s
    wait_for "out of range: 1.5" 10 || return 1
    on_screen "Edit endpoint llm-chat" || return 1
    set_field 0.75
    keys Tab Tab          # cold_workers
    set_field 50
    keys C-s
    wait_for "cannot exceed max_workers" 10 || return 1
    sleep 1
    [ "$(writes)" = "$w0" ] || { fail "an invalid form was sent"; return 1; }
    set_field 2
    keys C-s
    body_is "/api/v0/endptjobs/$e/" "{'target_util': 0.75, 'cold_workers': 2}" || return 1
    [ "$(writes)" = $((w0 + 1)) ] || { fail "more than one write"; return 1; }
    wait_gone "Edit endpoint" 10 || return 1
    wait_for_re "llm-chat \\($e\\).*util 0.75 .*cold_workers 2 " 20
}
t_service_error() {
    fresh || return 1
    e=$(ep_id sdxl-gen)
    g=$(wg_of "$e")
    select_endpoint sdxl-gen
    keys Down e
    wait_for "Edit workergroup $g" 10 || return 1
    # the workergroup goes away behind rentop's back
    printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -X DELETE "$SIM_URL/api/v0/workergroups/$g/" >/dev/null
    set_field 33          # min_load
    keys C-s
    wait_for "Workergroup $g not found" 20 || { screen_dump; return 1; }
    on_screen "Edit workergroup $g" || return 1
    l=$(line_with "min_load (load/s)")
    echo "$l" | grep -qF "33" || { fail "the typed value is gone: $l"; return 1; }
    keys Escape
    wait_gone "Edit workergroup" 10
}
t_cancel() {
    fresh || return 1
    e=$(ep_id llm-chat)
    w0=$(writes)
    select_endpoint llm-chat
    keys e
    wait_for "Edit endpoint llm-chat" 10 || return 1
    set_field 77
    keys Escape
    wait_gone "Edit endpoint" 10 || return 1
    keys d
    g=$(wg_of "$e")
    wait_for_flat "Delete endpoint llm-chat ($e)?" 10 || return 1
    wait_for_flat "workergroup ($g)" 5 || return 1
    keys Enter            # the dialog starts on Cancel
    wait_gone "Delete endpoint" 10 || return 1
    sleep 2
    [ "$(writes)" = "$w0" ] || { fail "a cancelled form or dialog sent something"; return 1; }
    [ "$(ep_field llm-chat min_load)" != 77.0 ] || { fail "min_load changed"; return 1; }
    [ "$(ep_field llm-chat id)" = "$e" ]
}
t_readonly() {
    fresh
    keys 1
    wait_for "Instances" 10 || return 1
    rentop_quit || return 1
    tm kill-server >/dev/null 2>&1
    rentop_start -s 160x40 --read-only || return 1
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: " 20 || return 1
    # the all-ERROR endpoint's flag is said once (a toast) when worker health
    # first arrives: let it come first, or it replaces the refusal's toast
    wait_for "every worker" 20 || return 1
    sleep 1
    w0=$(writes)
    keys g e
    wait_for "read-only mode: serverless-edit is disabled" 10 || return 1
    keys d
    wait_for "read-only mode: serverless-delete is disabled" 10 || return 1
    keys c
    wait_for "read-only mode: endpoint-create is disabled" 10 || return 1
    not_on_screen "Edit endpoint" || return 1
    not_on_screen "Delete endpoint" || return 1
    # the hint bar and the help hide them
    not_on_screen "new endpoint" || return 1
    keys '?'
    wait_for "Serverless view" 10 || return 1
    screen_flat | grep -qF "autoscaler settings" && { fail "help lists the edit key"; return 1; }
    keys q
    sleep 1
    [ "$(writes)" = "$w0" ] || { fail "read-only mode wrote"; return 1; }
}
tap "autoscale: the serverless view shows the simulator's endpoints" t_view
tap "autoscale: a workergroup edit PUTs only gpu_ram; the row shows 48" t_wg_edit
tap "autoscale: invalid values stay in the form unsent; then only the changed fields" t_ep_validation
tap "autoscale: the service's refusal stays in the open form with what was typed" t_service_error
tap "autoscale: Esc on a form and Cancel on a delete send nothing" t_cancel
tap "autoscale: --read-only refuses and hides the edit keys" t_readonly
e2e_done
