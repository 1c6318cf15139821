#!/bin/sh
# test_sv_width.sh: the serverless view's endpoint rows at 120 and 80
# columns keep what matters when the figures are stale (a 429 on the
# workers call): at 120 the worker counts, the load figures and the
# `(stale Ns)` marker; at 80 the counts, the load and the marker (fields
# are dropped whole, the least useful first); the worker limits are
# labelled (cold_workers N max_workers M); the endpoint hint bar lists
# `a` and `s`; and `a`'s form picks its template with Enter on the
# template hash field (the create form's picker), the hash sent.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -t -s 120x40 || { echo "not ok - rentop starts"; exit 1; }

# names: the simulator's endpoint names, one a line.
names() { sim_state "'\\n'.join(e['endpoint_name'] for e in d['endpoints'])"; }

# rows_match RE...: every endpoint's row matches each extended RE (quiet).
rows_match() {
    for en in $(names); do
        l=$(line_with "$en (")
        [ -n "$l" ] || return 1
        for re in "$@"; do
            echo "$l" | grep -qE -- "$re" || return 1
        done
    done
}

# rows_keep COLS RE...: the same, said when it fails.
rows_keep() {
    cols=$1
    shift
    for en in $(names); do
        l=$(line_with "$en (")
        [ -n "$l" ] || { fail "$cols columns: no row for $en"; screen_dump; return 1; }
        for re in "$@"; do
            echo "$l" | grep -qE -- "$re" ||
                { fail "$cols columns: the row of $en lacks /$re/: $l"; screen_dump; return 1; }
        done
    done
}

t_labelled() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: 3 endpoints" 20 || return 1
    # every endpoint's workers fetched once
    wait_begin 40
    until rows_match "[0-9]+ ready"; do
        wait_tick || { fail "not every endpoint shows its workers"; screen_dump; return 1; }
    done
    for en in $(names); do
        cw=$(ep_field "$en" cold_workers)
        mw=$(ep_field "$en" max_workers)
        l=$(line_with "$en (")
        echo "$l" | grep -qF "cold_workers $cw max_workers $mw" ||
            { fail "the limits of $en are not labelled: $l"; return 1; }
    done
    not_on_screen "workers $cw/$mw"
}

t_hints() {
    keys g
    wait_for "a add wg" 10 || return 1
    wait_for "s suspend/resume" 10
}

# stale_rows N: wait until N rows carry the (stale Ns) marker: the figures
# turn stale 30 s after the last answer, so rentop's clock jumps past that.
stale_at_least() { [ "$(screen | grep -c "(stale [0-9]*s)")" -ge "$1" ]; }
stale_rows() {
    clock_until 31 stale_at_least "$1" || { fail "fewer than $1 stale rows"; screen_dump; return 1; }
}

t_stale_120() {
    sim_fault /get_endpoint_workers 429 100
    # every endpoint's figures go stale: each row says so, with its figures
    stale_rows "$(names | wc -l)" || return 1
    rows_keep 120 "[0-9]+ ready" "load [0-9.]+/[0-9.]+" "\\(stale [0-9]+s\\)"
}

t_stale_80() {
    tm resize-window -t "$E2E_SESSION" -x 80 -y 40 || return 1
    sleep 1
    wait_for "Serverless:" 10 || return 1
    ok=0
    if rows_keep 80 "[0-9]+ ready" "load [0-9.]+/[0-9.]+" "\\(stale [0-9]+s\\)"; then
        ok=1
        # nothing past the edge: whole fields, the marker ends each row
        for en in $(names); do
            l=$(line_with "$en (")
            echo "$l" | grep -qE "\\(stale [0-9]+s\\) *$" ||
                { fail "80 columns: the row of $en does not end with its marker: $l"; ok=0; }
        done
    fi
    tm resize-window -t "$E2E_SESSION" -x 120 -y 40
    sim_post /__sim/fault '{"clear":true}' >/dev/null
    [ "$ok" = 1 ]
}

t_picker() {
    fresh || return 1
    e=$(ep_id llm-chat)
    # a recommended template whose name no other one contains
    tname=$(sim_state "next(t['name'] for t in d['templates'] if t.get('recommended') and sum(1 for u in d['templates'] if t['name'].lower() in u['name'].lower()) == 1)")
    hash=$(sim_state "next(t['hash_id'] for t in d['templates'] if t['name'] == '$tname')")
    image=$(sim_state "next(t['image'] for t in d['templates'] if t['name'] == '$tname')")
    [ -n "$tname" ] && [ -n "$hash" ] || { fail "no template to pick"; return 1; }
    n0=$(sim_state "len([w for w in d['workergroups'] if w['endpoint_id'] == $e])")
    select_endpoint llm-chat
    keys a
    wait_for "New workergroup on llm-chat ($e)" 10 || return 1
    wait_for "template hash (Enter picks)" 5 || return 1
    keys Enter
    wait_for "Pick a template" 10 || return 1
    type_text "$tname"
    wait_for "$image" 20 || return 1   # its row of the list
    keys Enter
    wait_gone "Pick a template" 10 || return 1
    wait_for "$hash" 5 || return 1
    wait_for "template $tname picked" 5 || return 1
    keys C-s
    sim_expect "[w['template_hash'] for w in d['workergroups'] if w['endpoint_id'] == $e][$n0:] == ['$hash']" true 20
}

# q in a view goes back first: quit from the instances.
t_quit() {
    keys 1
    wait_for "ID" 10 || return 1
    rentop_quit
}

tap "serverless: the worker limits labelled cold_workers N max_workers M" t_labelled
tap "serverless: the endpoint hint bar lists a (add wg) and s (suspend/resume)" t_hints
tap "serverless at 120 columns: stale rows keep the counts, the load and the (stale Ns) marker" t_stale_120
tap "serverless at 80 columns: the counts, the load and the marker stay; fields dropped whole" t_stale_80
tap "serverless: a's form picks the template with Enter on its hash field (the hash sent)" t_picker
tap "serverless: q quits with status 0 and no sanitizer report" t_quit
e2e_done
