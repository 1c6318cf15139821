#!/bin/sh
# test_account_prices.sh: pending price increases against rentop-sim: the
# two seeded ones (instances of pending 5500, 5501) are marked on their rows (beside $/H)
# and counted in the header; the detail view says the new price and date;
# `:prices accept ID` asks first (Enter on Cancel sends nothing), then
# accepts once (the instance's end date moves, the marker goes); under
# --read-only `:prices` and `^` are refused and nothing is sent; `^` on the
# row asks Cancel/Accept/Reject from Cancel (Enter sends nothing), a row
# without an increase is told so, and a reject whose answer is lost is sent
# once and said unknown.
. "$(dirname "$0")/lib.sh"

sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home

pend() { sim_state "' '.join(str(p['contract_id']) for p in d['acct']['pending'])"; }

t_prices() {
    set -- $(pend)
    A=$1 B=$2
    [ -n "$A" ] && [ -n "$B" ] || { fail "no seeded price increases"; return 1; }
    rentop_start -s 170x34 || return 1
    wait_for "Instances" 30 || return 1
    wait_for "2 price increases" 30 || return 1
    wait_for_re "^ *$A .*▲ *\\\$[0-9]" 10 || return 1          # beside the row's $/H
    screen | grep -qE "^ *$B .*▲ *\\\$[0-9]" || { fail "no marker on $B"; return 1; }
    select_row "$A" || return 1
    keys Enter
    wait_for_re "price increase +GPU \\\$[0-9.]+/h \\(now \\\$[0-9.]+/h\\) from 20[0-9-]+ UTC" 10 || return 1
    keys Escape
    cmd "prices accept $A"
    wait_for "Accept price increase" 10 || return 1
    keys Enter                               # Cancel is focused
    wait_gone "Accept price increase" 10 || return 1
    sleep 1
    [ "$(sent PUT /api/v0/instances/accept-price-increase/)" = 0 ] || { fail "sent from Cancel"; return 1; }
    cmd "prices accept $A"
    wait_for "Accept price increase" 10 || return 1
    keys Right Enter
    wait_for "price increase on instance $A accepted" 20 || return 1
    [ "$(sent PUT /api/v0/instances/accept-price-increase/)" = 1 ] || { fail "not sent once"; return 1; }
    keys 1
    wait_for_re "1 price increase( |$)" 30 || return 1
    wait_for "$A" 10 || return 1
    screen | grep -qE "^ *$A .*▲" && { fail "marker still on $A"; return 1; }
    rentop_quit
}

t_readonly() {
    rentop_start -s 170x34 --read-only || return 1
    wait_for "Instances" 30 || return 1
    wait_for "1 price increase" 30 || return 1
    set -- $(pend)
    cmd "prices reject $1"
    wait_for "read-only: answering a price increase is a write" 10 || return 1
    not_on_screen "Reject price increase" || return 1
    keys 1
    wait_for "Instances" 10 || return 1
    select_row "$1" || return 1
    type_text "^"
    wait_for "read-only mode: price-answer is disabled" 10 || return 1
    not_on_screen "Accept it or reject it?" || return 1
    [ "$(sent PUT /api/v0/instances/reject-price-increase/)" = 0 ] || { fail "sent under --read-only"; return 1; }
    rentop_quit
}

t_key() {
    set -- $(pend)
    B=$1
    [ -n "$B" ] || { fail "no price increase left"; return 1; }
    rentop_start -s 170x34 || return 1
    wait_for "Instances" 30 || return 1
    wait_for "1 price increase" 30 || return 1
    # a row without an increase: told so, nothing asked
    N=$(first_inst "x['id'] != $B and x.get('actual_status') == 'running'")
    select_row "$N" || return 1
    type_text "^"
    wait_for "instance $N has no pending price increase" 10 || return 1
    not_on_screen "Accept it or reject it?" || return 1
    keys Escape
    select_row "$B" || return 1
    type_text "^"
    wait_for "Accept it or reject it?" 10 || return 1
    keys Enter                               # Cancel is focused
    wait_gone "Accept it or reject it?" 10 || return 1
    sleep 1
    [ "$(sent PUT /api/v0/instances/reject-price-increase/)" = 0 ] || { fail "sent from Cancel"; return 1; }
    [ "$(sent PUT /api/v0/instances/accept-price-increase/)" = 1 ] || { fail "accept sent from Cancel"; return 1; }
    keys 1
    wait_for "Instances" 10 || return 1
    type_text "^"
    wait_for "Accept it or reject it?" 10 || return 1
    fault /api/v0/instances/reject-price-increase/ PUT lost
    keys Right Right Enter                   # Reject
    wait_for_flat "price increase on instance $B: outcome unknown (answer lost, not resent)" 20 || return 1
    sleep 3
    [ "$(sent PUT /api/v0/instances/reject-price-increase/)" = 1 ] || { fail "the lost reject was not sent exactly once"; return 1; }
    [ -z "$(pend)" ] || { fail "the simulator still has a pending increase"; return 1; }
    keys 1
    wait_gone "1 price increase" 30 || return 1
    rentop_quit
}

tap "price increases: marked, counted, detailed; accept asked from Cancel, sent once" t_prices
tap "--read-only: :prices and ^ refused, nothing sent" t_readonly
tap "^ on the row: asked from Cancel; no increase said; a lost reject sent once" t_key
e2e_done
