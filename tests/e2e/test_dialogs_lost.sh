#!/bin/sh
# test_dialogs_lost.sh: a confirmed write whose answer is lost is never sent
# again by a second Enter (issue 21), the dialogs' side of
# test_forms_lost.sh.  For every confirm-then-write dialog outside the
# instances view: env var, API key, SSH key and team role delete (account
# view), endpoint and workergroup delete, endpoint suspend (serverless
# view).  Each time a fault takes the answer ("truncated": acted on, the
# answer cut; "lost": acted on, no answer; "502": a front server's page,
# not acted on) and the re-read is held 2 s, Enter is pressed once more
# after "the answer was lost" shows; the simulator counted exactly one
# request of the write, and the screen says what the list, read again,
# shows ("env var X is gone: deleted", "... is still there: not deleted; d
# to try again").  d (or s) then opens a new dialog: sending again is the
# operator's own decision.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
rentop_start -s 200x40 || { echo "not ok - rentop starts"; exit 1; }

# twice TEXT METHOD PATH: the open confirmation's OK (Tab, Enter), then,
# once the answer is said lost, Enter again; exactly one METHOD request on
# PATH reached the simulator (checked a moment after, for a late one), and
# TEXT, what the re-read shows, is said (on screen, else in the event log:
# 2, then back to view $VIEW).
VIEW=5
twice() {
    n0=$(sent "$2" "$3")
    keys Tab Enter
    wait_begin 20
    while :; do
        case $(screen_flat) in *"the answer was lost"*) break ;; esac
        wait_tick || { fail "the lost answer was not said"; return 1; }
    done
    keys Enter
    sleep 1
    n=$(( $(sent "$2" "$3") - n0 ))
    [ "$n" = 1 ] || { fail "$2 $3 reached the simulator $n times"; return 1; }
    said_or_logged "$1" 15 "$VIEW"
}

t_env_not_deleted() {
    wait_for "Instances" 30 || return 1
    cmd "account env"
    wait_for "HF_TOKEN" 20 || return 1
    keys g d
    wait_for "Delete env var" 10 || return 1
    fault /api/v0/secrets/ DELETE 502 || return 1
    fault /api/v0/secrets/ GET latency '"ms":2000' || return 1
    twice "env var HF_TOKEN is still there: not deleted; d to try again" DELETE /api/v0/secrets/ || return 1
    not_on_screen "Delete env var" || return 1
    [ "$(sim_state "'HF_TOKEN' in d['secrets']")" = true ] || { fail "HF_TOKEN is gone"; return 1; }
    # d: a new confirmation (on Cancel), the operator's own send
    keys d
    wait_for "Delete env var" 10 || return 1
    keys Tab Enter
    wait_for "env var HF_TOKEN deleted" 20 || return 1
    [ "$(sent DELETE /api/v0/secrets/)" = 2 ] || { fail "the send on purpose did not go"; return 1; }
    sim_expect "'HF_TOKEN' in d['secrets']" false 5
}

t_env_deleted() {
    keys g
    wait_for "WANDB_API_KEY" 20 || return 1
    wait_gone "HF_TOKEN" 20 || return 1
    keys d
    wait_for "Delete env var" 10 || return 1
    fault /api/v0/secrets/ DELETE truncated || return 1
    fault /api/v0/secrets/ GET latency '"ms":2000' || return 1
    twice "env var WANDB_API_KEY is gone: deleted" DELETE /api/v0/secrets/ || return 1
    not_on_screen "Delete env var"
}

t_apikey() {
    cmd "account apikeys"
    wait_for "read-only monitor" 20 || return 1
    id=$(sim_state "next(k['id'] for k in d['apikeys'] if k['name'] == 'read-only monitor')")
    keys g Down d
    wait_for "Delete API key $id" 10 || return 1
    sleep 1    # the own-key check answers (it is not rentop's key)
    fault "/api/v0/auth/apikeys/$id/" DELETE truncated || return 1
    fault /api/v0/auth/apikeys/ GET latency '"ms":2000' || return 1
    twice "API key $id is gone: deleted" DELETE "/api/v0/auth/apikeys/$id/" || return 1
    not_on_screen "Delete API key"
}

t_ssh() {
    cmd "account ssh"
    wait_for "FINGERPRINT" 20 || return 1
    id=$(curl -sS --max-time 10 -H "Authorization: Bearer $(cat "$E2E_TMP/api_key")" "$SIM_URL/api/v0/ssh/" |
        python3 -c 'import json, sys; d = json.load(sys.stdin); print((d if isinstance(d, list) else d["ssh_keys"])[0]["id"])')
    [ -n "$id" ] || { fail "no SSH key in the simulator"; return 1; }
    wait_for "$id" 20 || return 1
    keys g d
    wait_for "Delete SSH key $id" 10 || return 1
    fault "/api/v0/ssh/$id/" DELETE lost || return 1
    fault /api/v0/ssh/ GET latency '"ms":2000' || return 1
    twice "SSH key $id is gone: deleted" DELETE "/api/v0/ssh/$id/" || return 1
    not_on_screen "Delete SSH key"
}

t_role() {
    cmd "account roles"
    wait_for "manager" 20 || return 1
    n=$(sim_state "[r['name'] for r in d['roles']].index('manager')")
    keys g
    i=0; while [ "$i" -lt "$n" ]; do keys Down; i=$((i + 1)); done
    keys d
    wait_for "Delete team role" 10 || return 1
    on_screen "manager" || return 1
    fault /api/v0/team/roles/manager/ DELETE 502 || return 1
    fault /api/v0/team/roles-full/ GET latency '"ms":2000' || return 1
    twice "team role manager is still there: not deleted; d to try again" DELETE /api/v0/team/roles/manager/ || return 1
    not_on_screen "Delete team role"
}

t_suspend_502() {
    VIEW=4
    keys Escape 4
    wait_for "Serverless: " 20 || return 1
    wait_for "template " 20 || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys s
    wait_for "Suspend endpoint" 10 || return 1
    fault "/api/v0/endptjobs/$e/" PUT 502 || return 1
    fault /api/v0/endptjobs/ GET latency '"ms":2000' || return 1
    twice "endpoint llm-chat ($e) is not suspended: not suspended; s to try again" PUT "/api/v0/endptjobs/$e/" || return 1
    [ "$(ep_field llm-chat endpoint_state)" = active ] || { fail "llm-chat is not active"; return 1; }
    not_on_screen "Suspend endpoint"
}

t_suspend_truncated() {
    fresh || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys s
    wait_for "Suspend endpoint" 10 || return 1
    fault "/api/v0/endptjobs/$e/" PUT truncated || return 1
    fault /api/v0/endptjobs/ GET latency '"ms":2000' || return 1
    twice "endpoint llm-chat ($e) is suspended: suspended" PUT "/api/v0/endptjobs/$e/" || return 1
    [ "$(ep_field llm-chat endpoint_state)" = suspended ] || { fail "llm-chat is not suspended"; return 1; }
    not_on_screen "Suspend endpoint"
}

t_wg_delete() {
    fresh || return 1
    e=$(ep_id llm-chat)
    g=$(wg_of "$e")
    select_endpoint llm-chat
    keys Down d
    wait_for "Delete workergroup" 10 || return 1
    fault "/api/v0/workergroups/$g/" DELETE lost || return 1
    fault /api/v0/workergroups/ GET latency '"ms":2000' || return 1
    twice "workergroup $g is gone: deleted" DELETE "/api/v0/workergroups/$g/" || return 1
    not_on_screen "Delete workergroup"
}

t_ep_delete() {
    fresh || return 1
    e=$(ep_id sdxl-gen)
    select_endpoint sdxl-gen
    keys d
    wait_for "Delete endpoint" 10 || return 1
    fault "/api/v0/endptjobs/$e/" DELETE truncated || return 1
    fault /api/v0/endptjobs/ GET latency '"ms":2000' || return 1
    twice "endpoint sdxl-gen ($e) is gone: deleted" DELETE "/api/v0/endptjobs/$e/" || return 1
    not_on_screen "Delete endpoint"
}

tap "env var delete, 502: sent once, re-read: still there, not deleted; d sends it on purpose" t_env_not_deleted
tap "env var delete, truncated: sent once, re-read: gone, deleted" t_env_deleted
tap "API key delete, truncated: sent once, re-read: gone, deleted" t_apikey
tap "SSH key delete, answer lost: sent once, re-read: gone, deleted" t_ssh
tap "team role delete, 502: sent once, re-read: still there, not deleted" t_role
tap "endpoint suspend, 502: sent once, re-read: not suspended" t_suspend_502
tap "endpoint suspend, truncated: sent once, re-read: suspended" t_suspend_truncated
tap "workergroup delete, answer lost: sent once, re-read: gone, deleted" t_wg_delete
tap "endpoint delete, truncated: sent once, re-read: gone, deleted" t_ep_delete
t_quit() { keys Escape 1; sleep 0.5; rentop_quit; }
tap "q quits with status 0 and no sanitizer report" t_quit
e2e_done
