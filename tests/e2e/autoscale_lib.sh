# autoscale_lib.sh: helpers of the autoscale e2e scripts (sourced after
# lib.sh): form editing, the simulator's serverless writes and records, and
# moving the selection onto an endpoint's row.

# set_field TEXT: replace the focused form field's text.
set_field() {
    keys C-e C-u
    type_text "$1"
}

# writes: POST/PUT/DELETE the simulator served on serverless paths.
writes() {
    sim_state "sum(n for k, v in d['requests'].items() if ('endptjobs' in k or 'workergroups' in k) for m, n in v['methods'].items() if m != 'GET')"
}

# body_is PATH PYVALUE: the last body sent to PATH equals PYVALUE.
body_is() {
    sim_expect "(d['requests'].get('$1') or {}).get('last_body') == $2" true 20
}

# ep_field NAME FIELD: a field of the simulator's endpoint NAME.
ep_field() { sim_state "next((e.get('$2') for e in d['endpoints'] if e['endpoint_name'] == '$1'), None)"; }
ep_id() { ep_field "$1" id; }
wg_of() { sim_state "next((w['id'] for w in d['workergroups'] if w['endpoint_id'] == $1), None)"; }

# fresh: no form or dialog left open by a failed test before.
fresh() {
    keys Escape
    sleep 0.3
    sleep 0.3
    wait_for "Serverless: " 10
}

# select_endpoint NAME: move the selection onto endpoint NAME's row (rows:
# each endpoint in the simulator's order, then its workergroups).
select_endpoint() {
    n=$(sim_state "(lambda i: i + sum(1 for e in d['endpoints'][:i] for w in d['workergroups'] if w['endpoint_id'] == e['id']))([e['endpoint_name'] for e in d['endpoints']].index('$1'))")
    keys g
    i=0
    while [ "$i" -lt "$n" ]; do keys Down; i=$((i + 1)); done
}

t_view() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: 3 endpoints, 3 workergroups" 20 || return 1
    wait_for "template " 20
}
