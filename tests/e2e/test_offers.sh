#!/bin/sh
# test_offers.sh: the offers view (3, :offers QUERY).  A query's rows are the
# simulator's own answer to the same search body; t changes the type and
# < > i the server-side order (new searches); a bad query shows the parser's
# message and sends nothing; searching faster than the published limit
# shows "next search in" and holds the latest search, which goes by itself
# when the pacer allows, and a 429 keeps the table;
# Enter shows every field of an offer; bid offers sorted by $/h come in the
# order of the price the column shows.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -t -s 160x40 || { echo "not ok - rentop starts"; exit 1; }

searches() { sim_state "count('/api/v0/bundles')"; }

# The ids of the simulator's answer to the body rentop sends for LINE
# (query language + options), in its order, one per line.
sim_ids() {
    "$RENTOP" --url "$SIM_URL" --dump offers --json --query "$1" 2>/dev/null |
        python3 -c 'import json,sys; [print(o["id"]) for o in json.load(sys.stdin)]'
}

# The ids in the table on screen, top to bottom.
screen_ids() {
    screen | sed -n '5,$p' | awk '$1 ~ /^[0-9]+$/ { print $1 }'
}

Q='num_gpus>=2 reliability>0.9 -o dph+'

t_query() {
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "no search yet" 10 || return 1
    keys : ; type_text "offers $Q"; keys Enter
    wait_for_re "[0-9]+ offers?" 20 || return 1
    on_screen "defaults: verified" || return 1
    want=$(sim_ids "$Q" | head -n 10)
    got=$(screen_ids | head -n 10)
    [ -n "$want" ] || { fail "the simulator found no offer for $Q"; return 1; }
    [ "$want" = "$got" ] || { fail "rows differ from the simulator's: want $(echo $want) got $(echo $got)"; return 1; }
}

t_prefill() {
    keys s
    wait_for_flat "search: num_gpus>=2 reliability>0.9 -o dph+" 10 || return 1
    keys Escape
}

# / narrows the rows shown as it is typed, without a request; Esc clears
# it; s then Enter sends the search in force again (one request).
t_local_filter() {
    sleep 1
    before=$(searches)
    all=$(screen_ids | wc -l)
    first=$(screen_ids | head -n 1)
    [ "$all" -gt 1 ] || { fail "too few rows to filter: $all"; return 1; }
    keys /
    type_text "id=$first"
    wait_for "filter: id=$first (" 10 || return 1
    [ "$(screen_ids | head -n 1)" = "$first" ] || { fail "id=$first is not shown first"; return 1; }
    for i in $(screen_ids); do
        case $i in *"$first"*) ;; *) fail "id=$first shows $i"; return 1 ;; esac
    done
    [ "$(screen_ids | wc -l)" -lt "$all" ] || { fail "id=$first hid no row"; return 1; }
    keys Enter
    keys /
    keys C-u
    type_text "!id=$first"
    wait_for "filter: !id=$first" 10 || return 1
    case " $(screen_ids | tr '\n' ' ') " in *" $first "*) fail "!id=$first still shows it"; return 1 ;; esac
    keys Escape
    wait_gone "filter: !id=" 10 || return 1
    [ "$(screen_ids | wc -l)" = "$all" ] || { fail "Esc did not bring every row back"; return 1; }
    sleep 1
    [ "$(searches)" = "$before" ] || { fail "the / filter sent $(( $(searches) - before )) searches"; return 1; }
    keys s
    wait_for_flat "search: num_gpus>=2" 10 || return 1
    keys Enter
    sim_expect "count('/api/v0/bundles') - $before" 1 20 || return 1
    wait_for_re "[0-9]+ offers?" 20 || return 1
}

# The header names a search's type and sort once it is sent (a search the
# pacer holds shows "next search in" first and goes by itself: rentop's
# clock jumps its wait), and the status line says "N offers" once it is
# answered: wait for both.
t_type_sort() {
    before=$(searches)
    keys t
    clock_until 5 has "Offers: bid" || return 1
    clock_until 5 has "min bid from" || return 1
    keys t
    keys t
    # asked for while the first was under way: sent after it
    clock_until 5 has "Offers: on-demand" || return 1
    clock_until 5 has_re "[0-9]+ offers?" || return 1
    keys '>'
    clock_until 5 has "sort: DLPerf/\$ high first" || return 1
    clock_until 5 has_re "[0-9]+ offers?" || return 1
    want=$(sim_ids "num_gpus>=2 reliability>0.9 -o dlperf_per_dphtotal-" | head -n 8)
    got=$(screen_ids | head -n 8)
    [ "$want" = "$got" ] || { fail "after >: want $(echo $want) got $(echo $got)"; return 1; }
    keys i
    clock_until 5 has "sort: DLPerf/\$ low first" || return 1
    clock_until 5 has_re "[0-9]+ offers?" || return 1
    want=$(sim_ids "num_gpus>=2 reliability>0.9 -o dlperf_per_dphtotal+" | head -n 8)
    got=$(screen_ids | head -n 8)
    [ "$want" = "$got" ] || { fail "after i: want $(echo $want) got $(echo $got)"; return 1; }
    after=$(searches)
    # rentop's own searches (the checks' --dump searches are counted too)
    [ "$after" -ge $((before + 5)) ] || { fail "searches $before -> $after"; return 1; }
}

t_bad_query() {
    sleep 1
    before=$(searches)
    keys : ; type_text "offers gpu_nam=RTX_4090"; keys Enter
    wait_for "did you mean gpu_name" 10 || return 1
    on_screen "nothing sent" || return 1
    on_screen "column" || return 1
    keys s ; keys C-u; type_text "num_gpus=>2"; keys Enter
    wait_for_re "query: .*column" 10 || return 1
    sleep 1
    [ "$(searches)" = "$before" ] || { fail "a bad query reached the service"; return 1; }
    # the last good results are still there
    [ -n "$(screen_ids | head -n 1)" ] || { fail "the table emptied"; return 1; }
}

t_pacing() {
    before=$(searches)
    # r pressed in bursts of 4 (faster than the pacer allows, whatever the
    # machine's load) until the pacer holds one: "next search in N s"
    n=0 seen=0 k=0
    while [ $k -lt 40 ]; do
        if [ $((k % 4)) = 0 ]; then keys r r r r; n=$((n + 4)); fi
        sleep 0.25; k=$((k + 1))
        [ -n "$(screen_ids | head -n 1)" ] || { fail "the table emptied"; return 1; }
        screen | grep -q "next search in [0-9]* s" && { seen=1; break; }
    done
    [ $seen = 1 ] || { fail "no 'next search in' after $n presses of r"; return 1; }
    # the countdown counts down by itself (no key pressed)
    n1=$(screen | sed -n 's/.*next search in \([0-9]*\) s.*/\1/p' | head -n 1)
    if [ "${n1:-0}" -ge 3 ]; then
        k=0 down=0
        while [ $k -lt 20 ]; do
            n2=$(screen | sed -n 's/.*next search in \([0-9]*\) s.*/\1/p' | head -n 1)
            [ -n "$n2" ] && [ "$n2" -lt "$n1" ] && { down=1; break; }
            sleep 0.2; k=$((k + 1))
        done
        [ $down = 1 ] || { fail "the countdown stayed at $n1 s"; return 1; }
    fi
    on_screen "sort: DLPerf/\$ low first" || return 1
    # a newer request replaces the pending one; the pacer just held one (or
    # sent the pending, taking its token), so i is not sent at once either
    keys i; n=$((n + 1))
    sleep 0.3
    on_screen "sort: DLPerf/\$ low first" || { fail "i was sent at once"; return 1; }
    screen | grep -qE "next search in|searching" || { fail "i neither held nor queued"; return 1; }
    # it goes by itself, with no key pressed (rentop's clock jumps the
    # pacer's wait), and is answered
    clock_until 2 has "sort: DLPerf/\$ high first" || return 1
    wait_for_re "[0-9]+ offers?" 30 || return 1
    [ -n "$(screen_ids | head -n 1)" ] || { fail "the table emptied"; return 1; }
    sleep 1
    sent=$(( $(searches) - before ))
    [ "$sent" -lt "$n" ] || { fail "$sent of $n searches were sent"; return 1; }
    want=$(sim_ids "num_gpus>=2 reliability>0.9 -o dlperf_per_dphtotal-" | head -n 8)
    got=$(screen_ids | head -n 8)
    [ "$want" = "$got" ] || { fail "after the pending i: want $(echo $want) got $(echo $got)"; return 1; }
}

t_429() {
    # the pacer allows one search (7 s pass on rentop's clock), then the
    # service refuses it once: the poller waits past the window (rentop's
    # clock jumps) and asks again; meanwhile (and after) the table keeps its rows
    clock_advance 7 || return 1
    sim_fault /api/v0/bundles 429 1 || return 1
    keys r
    wait_for "searching" 10 || return 1
    [ -n "$(screen_ids | head -n 1)" ] || { fail "the table emptied during the 429"; return 1; }
    clock_until 3 has_re "[0-9]+ offers?" || return 1
    [ -n "$(screen_ids | head -n 1)" ] || { fail "a 429 emptied the table"; return 1; }
    not_on_screen "no offer matches" || return 1
    sim_post /__sim/fault '{"clear":true}'
}

t_detail() {
    keys Enter
    wait_for "dlperf per \$/h" 10 || return 1
    on_screen "machine_id:" || return 1
    on_screen "max duration:" || return 1
    keys Escape
    wait_gone "machine_id:" 10
}

t_help_here() {
    # F1 opens the help at the offers view's own keys, not at the top
    keys F1
    wait_for "Help  (Esc" 10 || return 1
    second=$(screen | grep -A1 "Help  (Esc" | sed -n 2p)
    case $second in
    *"Offers view"*) ;;
    *) fail "the help opened at: $second"; return 1 ;;
    esac
    keys Escape
    wait_gone "Help  (Esc" 10
}

# The $/h cells on screen, top to bottom (the first price of each row).
screen_prices() {
    screen | sed -n '5,$p' | awk '$1 ~ /^[0-9]+$/' | grep -o '\$[0-9.]*/h' | tr -d '$/h'
}

# Bid offers sorted by $/h (issue 21): the rows come in the order of the
# price the column shows (min_bid + storage), not the service's on-demand
# dph_total, both ways.
t_bid_sort() {
    sleep 2
    keys : ; type_text "offers num_gpus=1 -t bid -o dph+"; keys Enter
    wait_for "Offers: bid" 40 || return 1
    wait_for_re "[0-9]+ offers?" 40 || return 1
    p=$(screen_prices | head -n 20)
    [ "$(echo "$p" | wc -l)" -ge 10 ] || { fail "too few rows: $(echo $p)"; return 1; }
    [ "$p" = "$(echo "$p" | sort -n)" ] || { fail "dph+ out of order: $(echo $p)"; return 1; }
    sleep 2
    keys i
    wait_for "sort: \$/h high first" 40 || return 1
    wait_for_re "[0-9]+ offers?" 40 || return 1
    p=$(screen_prices | head -n 20)
    [ "$p" = "$(echo "$p" | sort -rn)" ] || { fail "dph- out of order: $(echo $p)"; return 1; }
}

tap "offers: :offers QUERY shows the simulator's answer to the same search, in its order" t_query
tap "offers: s pre-fills the query line with the search in force" t_prefill
tap "offers: / filters the rows shown without a request; s sends one" t_local_filter
tap "offers: t cycles the type, > and i change the server-side order (new searches)" t_type_sort
tap "offers: a bad query shows the parser's message with the column and sends nothing" t_bad_query
tap "offers: searching faster than the limit says next search in N s, holds the latest request and sends it by itself" t_pacing
tap "offers: a 429 shows the wait and keeps the table" t_429
tap "offers: Enter shows every field of the offer" t_detail
tap "offers: F1 opens the help at the offers view's keys" t_help_here
tap "offers: bid offers sorted by \$/h come in the order of the price shown (dph+ and dph-)" t_bid_sort
e2e_done
