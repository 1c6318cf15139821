#!/bin/sh
# test_atmostonce.sh: an action is never sent twice once the service may have
# acted on it (issue 13).  For prepay, destroy, stop and bid, a fault on the
# action's path: "truncated" (acted on, answer cut), "lost" (acted on, the
# connection closes with no answer) and "drop" (closed before acting).  Each
# time the simulator counted exactly one request of that method on the path,
# the credit moved at most once, and the event log says the outcome was
# unknown, then what the re-read found.  Create has no key yet: the poller
# unit test (test_poller.c, create_lost_is_not_resent) covers it.
. "$(dirname "$0")/lib.sh"

sim_start --seed 3 --quiet --rate-limits off --instances 40 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 220x40 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"
USED=""

# pick PYCOND: an instance not used by an earlier case.
pick() {
    sim_state "next((x['id'] for x in sorted(insts, key=lambda x: x['id']) if ($1) and x['id'] not in [${USED:-0}]), None)"
}
use() { USED="${USED:+$USED,}$1"; }

# in_log TEXT: the event log (view 2) shows TEXT; back to the table after.
in_log() {
    keys Escape Escape 2
    r=0
    wait_for_flat "$1" "${2:-20}" || r=1
    keys 1
    sleep 0.3
    return $r
}

clear_filter() { keys Escape; sleep 0.2; keys Escape; sleep 0.2; }

# prepay_case KIND APPLIED(1/0)
prepay_case() {
    id=$(pick "$RUNNING"); [ "$id" != null ] || { fail "no running instance left"; return 1; }
    use "$id"
    path=/api/v0/instances/prepay/$id/
    c0=$(sim_state "d['user']['credit']")
    fault "$path" PUT "$1" || return 1
    select_row "$id" || return 1
    keys '$'
    wait_for "Prepay instance $id" 10 || return 1
    keys C-u; type_text "10"; keys Enter
    in_log "prepay of \$10.00 to instance $id: the answer was lost, the outcome is unknown; check the credit before trying again" || return 1
    if [ "$2" = 1 ]; then
        in_log "the prepay took effect" || return 1
    else
        in_log "the prepay did not take effect" || return 1
    fi
    [ "$(sent PUT "$path")" = 1 ] || { fail "prepay sent $(sent PUT "$path") times"; return 1; }
    # the account credit moved by the amount once (or not at all), give or take billing
    moved=$(sim_state "round($c0 - d['user']['credit'])")
    want=$([ "$2" = 1 ] && echo 10 || echo 0)
    [ "$moved" = "$want" ] || { fail "credit moved by $moved, expected $want"; return 1; }
    clear_filter
}

destroy_case() {
    id=$(pick "x.get('actual_status') in ('running', 'exited')"); use "$id"
    path=/api/v0/instances/$id/
    fault "$path" DELETE "$1" || return 1
    select_row "$id" || return 1
    keys D
    wait_for "Destroy instance $id" 10 || return 1
    keys Tab Enter
    in_log "destroy of instance $id: the answer was lost, the outcome is unknown; checking whether it is gone" || return 1
    if [ "$2" = 1 ]; then
        in_log "instance $id is gone: destroyed" || return 1
        [ "$(sim_state "inst($id) is None")" = true ] || { fail "instance $id is still there"; return 1; }
    else
        in_log "instance $id is still there" || return 1
        in_log "the destroy did not take effect" || return 1
    fi
    [ "$(sent DELETE "$path")" = 1 ] || { fail "destroy sent $(sent DELETE "$path") times"; return 1; }
    clear_filter
}

stop_case() {
    id=$(pick "$RUNNING and not x.get('is_bid')"); use "$id"
    path=/api/v0/instances/$id/
    fault "$path" PUT "$1" || return 1
    select_row "$id" || return 1
    keys s
    wait_for "Stop instance $id" 10 || return 1
    keys Tab Enter
    in_log "stop of instance $id: the answer was lost, the outcome is unknown; checking its state" || return 1
    if [ "$2" = 1 ]; then
        in_log "the stop took effect" || return 1
    else
        in_log "the stop did not take effect" || return 1
    fi
    [ "$(sent PUT "$path")" = 1 ] || { fail "stop sent $(sent PUT "$path") times"; return 1; }
    clear_filter
}

bid_case() {
    # a bid over its min_bid and under its on-demand price (past either a
    # second question comes first)
    id=$(pick "x.get('is_bid') and (x.get('min_bid') or 0) + 0.01 < x['search']['gpuCostPerHour']"); [ "$id" != null ] || { fail "no interruptible instance left"; return 1; }
    use "$id"
    p=$(sim_state "'%.3f' % ((inst($id)['min_bid'] + inst($id)['search']['gpuCostPerHour']) / 2)")
    path=/api/v0/instances/bid_price/$id/
    fault "$path" PUT "$1" || return 1
    select_row "$id" || return 1
    keys b
    wait_for_flat "32 per GPU" 10 || return 1
    keys C-u; type_text "$p"; keys Enter
    in_log "bid of \$$p/h on instance $id: the answer was lost, the outcome is unknown; check the bid before trying again" || return 1
    if [ "$2" = 1 ]; then
        in_log "bids \$$p/h: the bid took effect" || return 1
    else
        in_log "the bid did not take effect" || return 1
    fi
    [ "$(sent PUT "$path")" = 1 ] || { fail "bid sent $(sent PUT "$path") times"; return 1; }
    clear_filter
}

tap() {
    keys Escape Escape Escape
    sleep 0.3
    e2e_tap "$@"
}

tap "prepay with a truncated answer: sent once, credit moved once, unknown then took effect" prepay_case truncated 1
tap "prepay with the answer lost: sent once, credit moved once, unknown then took effect" prepay_case lost 1
tap "prepay dropped before acting: sent once, credit unchanged, unknown then did not take effect" prepay_case drop 0
tap "destroy with a truncated answer: sent once, unknown then gone" destroy_case truncated 1
tap "destroy dropped before acting: sent once, unknown then still there" destroy_case drop 0
tap "stop with a truncated answer: sent once, unknown then took effect" stop_case truncated 1
tap "stop with the answer lost: sent once, unknown then took effect" stop_case lost 1
tap "stop dropped before acting: sent once, unknown then did not take effect" stop_case drop 0
tap "bid with a truncated answer: sent once, unknown then took effect" bid_case truncated 1
tap "bid dropped before acting: sent once, unknown then did not take effect" bid_case drop 0
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
