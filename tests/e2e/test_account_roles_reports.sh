#!/bin/sh
# test_account_roles_reports.sh: the account view's team roles and machine
# reports, and --read-only over every section, against rentop-sim (screen and simulator
# state): a role created with a preset (the service's error first kept in
# the open form with what was typed), then edited by ticking a category
# (the scope becomes custom; the categories sent checked); the reports of an
# instance's machine with M in the instance table, of any machine with
# :reports MACHINE_ID and with m; the section hint bars; under --read-only
# every change refused and hidden from hints and help, M still showing
# reports, and no write reaching the simulator.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/secrets_lib.sh"

sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_TMP/caps"
LOG="$E2E_TMP/caps/rentop.log"
rentop_start -s 130x34 --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }

NCAP=0
cap() { NCAP=$((NCAP + 1)); screen >"$E2E_TMP/caps/screen.$NCAP"; }
count_method() { sim_state "sum(v['methods'].get('$2', 0) for k, v in d['requests'].items() if '$1' in k)"; }

t_roles() {
    wait_for "Instances" 30 || return 1
    keys 5
    wait_for "email verified" 20 || return 1
    wait_for_re "burn rate +(>=|≥)?\\\$[0-9.]+/h" 20 || return 1   # the overview says burn and runway
    wait_for "runway " 10 || return 1
    cmd "account roles"
    wait_for "PERMISSIONS" 10 || return 1
    wait_for "manager" 20 || return 1
    wait_for_re "a create.*e edit.*d delete" 10 || return 1
    # the service's error is kept in the open form with what was typed
    keys a
    wait_for "Create team role" 10 || return 1
    type_text "manager"
    keys C-s
    wait_for "Role already exists" 20 || return 1
    on_screen "Create team role" || return 1
    keys C-u; type_text "e2e-role"
    keys Tab Right                          # read-only -> instances
    wait_for "instances >" 10 || return 1
    keys C-s
    wait_for "team role e2e-role created" 20 || return 1
    sim_expect "sorted(next(r for r in d['roles'] if r['name'] == 'e2e-role')['permissions']['api'])" \
        '["instance_read", "instance_write", "misc"]' 10 || return 1
    wait_for_re "e2e-role +instances" 20 || return 1
    keys G    # once listed (G before the refresh selected the last row then: member)
    sleep 0.3
    keys e
    wait_for "Edit team role" 10 || return 1
    # tick billing_read (the sixth category): the scope becomes custom
    keys Down Down Down Down Down Down Space
    wait_for "custom >" 10 || return 1
    keys C-s
    wait_for "team role e2e-role changed" 20 || return 1
    sim_expect "sorted(next(r for r in d['roles'] if r['name'] == 'e2e-role')['permissions']['api'])" \
        '["billing_read", "instance_read", "instance_write", "misc"]' 10 || return 1
    wait_for_re "e2e-role +custom: .*billing_read" 20 || return 1
    cap
}

# MACHINE: a machine of an instance whose reports are not empty.
pick_machine() {
    for id in $(sim_state "' '.join(str(x['id']) + ':' + str(x['machine_id']) for x in insts[:12])"); do
        m=${id#*:}
        n=$(curl -s -H "Authorization: Bearer $SIM_KEY" "$SIM_URL/api/v0/machines/$m/reports/" |
            python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
        if [ "$n" -gt 0 ]; then INST=${id%:*}; MACHINE=$m; NREP=$n; return 0; fi
    done
    fail "no seeded machine has reports"
}

t_reports() {
    pick_machine || return 1
    keys 1
    wait_for "Enter detail" 10 || return 1
    select_row "$INST" || return 1
    keys M
    wait_for "machine $MACHINE: $NREP report" 20 || return 1
    wait_for_re "(gpu_error|network|disk_failure|performance) " 10 || return 1
    on_screen "ago)" || return 1
    wait_for_re "m machine" 10 || return 1
    [ "$(count_method "/machines/$MACHINE/reports" GET)" -ge 1 ] || { fail "no request"; return 1; }
    cap
    # :reports for another machine
    other=$(sim_state "next(x['machine_id'] for x in insts if x['machine_id'] != $MACHINE)")
    keys :; type_text "reports $other"; keys Enter
    # the answer drawn ("machine N: fetching..." comes before the request is sent)
    wait_for_re "machine $other: [0-9]+ report" 20 || return 1
    [ "$(count_method "/machines/$other/reports" GET)" -ge 1 ] || { fail "no request for $other"; return 1; }
    keys :; type_text "reports nope"; keys Enter
    wait_for "needs a machine id" 10 || return 1
    # m here
    keys m
    wait_for "Machine id" 10 || return 1
    keys C-u; type_text "$MACHINE"; keys C-s
    wait_for "machine $MACHINE: $NREP report" 20 || return 1
    keys 1
    wait_for "Enter detail" 10 || return 1
    keys Escape
}

t_readonly() {
    tm kill-session -t "$E2E_SESSION" 2>/dev/null
    rentop_start -s 130x34 --read-only || return 1
    wait_for "READ-ONLY" 30 || return 1
    sleep 1
    # counted once the read-write rentop is gone (its last request may land late)
    w0=$(sim_state "writes()")
    keys 5
    wait_for "email verified" 20 || return 1
    for sec in "HF_TOKEN:a e d" "SCOPE:a d" "FINGERPRINT:a d" "PERMISSIONS:a e d"; do
        keys ']'
        wait_for "${sec%%:*}" 20 || return 1
        not_on_screen "a add" || return 1
        not_on_screen "a create" || return 1
        for k in ${sec#*:}; do
            keys "$k"
            wait_for_re "[Rr]ead-only" 10 || return 1
            not_on_screen "[ Cancel ]" || return 1
            not_on_screen "C-s submit" || return 1
        done
    done
    keys '?'
    wait_for "Account view" 10 || return 1
    not_on_screen "create an API key" || return 1
    keys Escape
    # reports change nothing: they work read-only
    keys 1
    wait_for "Enter detail" 10 || return 1
    select_row "$INST" || return 1
    keys M
    wait_for "machine $MACHINE: $NREP report" 20 || return 1
    sleep 1
    [ "$(sim_state "writes()")" = "$w0" ] || { fail "a write reached the service"; return 1; }
    keys 1
    rentop_quit
}

t_no_secret() {
    cap
    rentop_quit || return 1
    no_issued_secret_in "$E2E_TMP/caps"
}

tap "team role create (service error kept in the form), edit to a custom scope" t_roles
tap "machine reports: M on an instance, :reports MACHINE_ID, m" t_reports
tap "no issued secret in any capture or the log" t_no_secret
tap "--read-only: every change refused and hidden, reports still shown, no write" t_readonly
e2e_done
