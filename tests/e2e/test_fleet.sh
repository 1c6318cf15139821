#!/bin/sh
# test_fleet.sh: 10,000 instances under the live rate limits (rentop-sim's
# defaults): the first rows within 2 s; the tab shows loaded/total while the
# first sweep runs; never an infinite runway or a $0 burn on screen while
# loading; the highest-id instance forced offline through the control API is
# shown offline within 15 s (and announced in the events); an injected 503
# in the middle of the sweep removes no row; once rentop holds every failure,
# a held offline instance destroyed elsewhere while another instance's host
# drops out (a swap that leaves the failure count level) is still shown
# offline within 15 s; and the simulator refused none of rentop's requests
# (429) over the run's window: FLEET_WINDOW_S, 90 s in `make check` (nine
# refresh cycles), five minutes in `make soak`.  The first sweep of 400 pages
# is not waited for: that is about 8 minutes at the published 1 request/s
# (it takes nearly every request until it is complete; one in 8 lists the
# failures not held yet).
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --instances 10000 --endpoints 0 --quiet || { echo "not ok - simulator starts"; exit 1; }
MAX=$(sim_state_of id "max(x['id'] for x in insts)")
MIN=$(sim_state_of id "min(x['id'] for x in insts)")
note "ids $MIN..$MAX"
SAMPLES=$E2E_TMP/header.samples
: >"$SAMPLES"

# loaded: the loaded count of the tab "Instances N/10000..." (empty when absent).
loaded() { screen | sed -n 's/.*Instances \([0-9][0-9]*\)\/10000.*/\1/p' | head -n 1; }

# sample_header: keep the header lines for the no-$0/no-infinity check.
sample_header() { screen | head -n 2 >>"$SAMPLES"; }

T0=$(date +%s%N)
rentop_start -s 160x40 || { echo "not ok - rentop starts"; exit 1; }

t_first_rows_fast() {
    wait_for "$MIN" "$(scaled 10)" || return 1
    ms=$(( ($(date +%s%N) - T0) / 1000000 ))
    note "first row after $ms ms"
    sample_header
    [ "$ms" -le $((2000 * E2E_SCALE)) ] || fail "first rows after $ms ms (> 2 s)"
}

t_tab_loaded_of_total() {
    wait_for_re "Instances [0-9]+/10000" 10 || return 1
    a=$(loaded)
    i=0
    while [ $i -lt 8 ]; do sleep 1; sample_header; i=$((i + 1)); done
    b=$(loaded)
    note "loaded $a then $b of 10000"
    [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] || fail "the loaded count did not grow ($a, $b)"
}

t_offline_within_15s() {
    sim_post /__sim/instance "{\"id\":$MAX,\"actual_status\":\"offline\"}" >/dev/null || return 1
    t=$(date +%s)
    select_row "$MAX" >/dev/null
    # aim 15 s (the figure is noted); the limit is 30 s, far under the
    # 8 minutes the first sweep of 10,000 takes at 1 page/s (which reads
    # the highest ids last), so only the failure listing that the first
    # sweep lets through every 8 requests passes, on a loaded machine too
    wait_for_re "^ *$MAX .* offline " "$(scaled 30)" || return 1
    note "offline shown after $(( $(date +%s) - t )) s"
    sample_header
    keys Escape
    keys 2
    wait_for_re "instance $MAX .*is offline" 10 || return 1
    keys 1
}

t_503_mid_sweep_removes_nothing() {
    before=$(loaded)
    [ -n "$before" ] || { fail "no loaded count on screen"; return 1; }
    sim_fault /api/v1/instances/ 503 6 || return 1
    i=0
    low=$before
    while [ $i -lt 20 ]; do
        sleep 1
        sample_header
        n=$(loaded)
        [ -n "$n" ] && [ "$n" -lt "$low" ] && low=$n
        i=$((i + 1))
    done
    after=$(loaded)
    note "loaded $before before the 503s, lowest $low, $after after"
    [ "$low" -ge "$before" ] || { fail "rows went away after the 503 ($before -> $low)"; return 1; }
    [ -n "$after" ] && [ "$after" -gt "$before" ] || fail "the sweep did not go on after the 503s"
}

# failed: the header's failed count ("... N failed"), empty when absent.
failed() { screen | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p' | head -n 1; }

t_swap_seen_within_15s() {
    # every failure held (the header counts what the simulator has): from
    # then on each attention listing excludes the 1,200 held failures (the
    # new one is in its answer whatever the counts).  While the first sweep
    # runs one request in 8 lists failures not held yet (25 a listing, the
    # groups in turn) and the sweep finds the rest: 150 s here at load 4
    deadline=$(( $(date +%s) + $(scaled 300) ))
    while :; do
        want=$(sim_state_of id,actual_status,intended_status "sum(1 for x in insts if x['actual_status'] in ('offline','unknown') or (x['actual_status'] in ('exited','created') and x['intended_status'] != 'stopped'))")
        [ "$(failed)" = "$want" ] && break
        [ "$(date +%s)" -lt "$deadline" ] || { fail "rentop holds $(failed) failures, not $want"; return 1; }
        sleep 1
    done
    note "rentop holds the $want failures"
    gone=$(sim_state_of id,actual_status "min(x['id'] for x in insts if x['actual_status'] == 'offline')")
    # the new failure among the highest ids, which the first sweep reads
    # last (the seeded credit runs out within minutes at 10,000 instances:
    # most are stopped by then)
    new=$(sim_state_of id,actual_status,intended_status "sorted(x['id'] for x in insts if x['actual_status'] == 'running' or (x['actual_status'] == 'exited' and x['intended_status'] == 'stopped'))[-100]")
    [ -n "$gone" ] && [ -n "$new" ] || { fail "no instances to swap ($gone, $new)"; return 1; }
    printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -X DELETE -d '{}' \
        "$SIM_URL/api/v0/instances/$gone/" >/dev/null || return 1
    sim_post /__sim/instance "{\"id\":$new,\"actual_status\":\"offline\"}" >/dev/null || return 1
    t=$(date +%s)
    select_row "$new" >/dev/null
    # aim 15 s (noted); the limit is 30 s for a loaded machine, far under
    # the minutes a sweep takes to correct the departed row
    wait_for_re "^ *$new .* offline " "$(scaled 30)" || return 1
    note "instance $gone destroyed, $new offline: shown after $(( $(date +%s) - t )) s"
    keys Escape
}

t_no_false_money_while_loading() {
    sample_header
    if grep -q "runway ∞\|runway -\b" "$SAMPLES"; then
        grep "runway" "$SAMPLES" | head -n 3 | sed 's/^/# /'
        fail "an infinite runway was shown while loading"; return 1
    fi
    if grep -Eq 'burn \$0\.0+/h' "$SAMPLES"; then
        fail "a \$0 burn was shown while loading"; return 1
    fi
    grep -q "burn ≥\\$" "$SAMPLES" || fail "no partial burn figure (≥) was shown"
}

WINDOW_S=${FLEET_WINDOW_S:-90}
t_no_429_to_rentop() {
    # the window is WINDOW_S seconds of rentop on this fleet (since its start)
    while [ $(( ($(date +%s%N) - T0) / 1000000000 )) -lt "$WINDOW_S" ]; do
        rentop_alive || { fail "rentop is gone"; return 1; }
        sleep 5
    done
    refused=$(sim_state_of id "sum(v['refused'] for v in d['rate_limits'].values())")
    allowed=$(sim_state_of id "d['rate_limits']['instances_list']['allowed']")
    note "list requests allowed $allowed, refused (all endpoints) $refused"
    [ "$refused" = 0 ] || fail "the simulator refused $refused requests with 429"
}

tap "first rows within 2 s" t_first_rows_fast
tap "tab shows loaded/total while sweeping" t_tab_loaded_of_total
tap "highest id forced offline shown before a full sweep (aim 15 s)" t_offline_within_15s
tap "a 503 mid-sweep removes no row" t_503_mid_sweep_removes_nothing
tap "no infinite runway or \$0 burn while loading" t_no_false_money_while_loading
tap "a failure swapped with a held one shown within 15 s" t_swap_seen_within_15s
tap "no 429 answered to rentop over ${WINDOW_S} s" t_no_429_to_rentop
e2e_done
