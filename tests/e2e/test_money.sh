#!/bin/sh
# test_money.sh: the money figures and the error states of the dashboard,
# against rentop-sim (manual clock: the prices stay put):
# - a refused key: the table names the key's source and what to do, the
#   header says AUTH (not STALE) and "burn ?" with no runway;
# - $/H is what each row costs now (a stopped row: its storage) and the
#   column sums to the header's burn; the header counts instances by state;
# - the sweep age is not in a fresh header; r and :refresh say it in their
#   toast, and the header shows it once nothing answers (OFFLINE);
# - the runway under its limits colours the header, rings the bell once per
#   crossing and writes an event; an instance's prepaid credit pays for it
#   before the account does (the runway counts the others alone);
# - the prepay prompt shows the months covered and the discount as the
#   amount is typed (nothing sent); the bid dialog shows the current bid and
#   min_bid, and a bid under min_bid asks a second confirmation;
# - cost so far says "upper bound" for a stopped instance, and counts no GPU
#   time known even when its record keeps the uptime of its last run;
# - a hung list: dimmed rows and a countdown, STALE not OFFLINE while the
#   balance answers, outage and recovery in the event log; OFFLINE and
#   "burn ?" when nothing answers.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off --clock manual || { echo "not ok - simulator starts"; exit 1; }

# ---- a refused key (its own rentop) ----------------------------------------------

t_refused_key() {
    real=$SIM_KEY
    SIM_KEY=0000000000000000000000000000000000000000000000000000000000000bad
    rentop_start -s 120x30 -k env
    SIM_KEY=$real
    wait_for_flat "the API key from VAST_API_KEY was refused (401): check it or use --api-key-file" 20 || return 1
    wait_for_re "AUTH *$" 10 || return 1
    on_screen "burn ?" || return 1
    not_on_screen "STALE" || return 1
    not_on_screen "runway" || return 1
    not_on_screen "\$0.000/h" || return 1
    not_on_screen "loading instances" || return 1
    no_secret_on_screen
}
tap "a refused key: the table says whose key and what to do, the header AUTH and burn ?" t_refused_key
tm kill-server >/dev/null 2>&1

# ---- the dashboard with a good key -------------------------------------------------

tm_bell_hook() {
    # count the bells rentop rings (tmux's alert-bell hook, the session is detached)
    tm set-option -g monitor-bell on >/dev/null 2>&1
    tm set-option -g bell-action any >/dev/null 2>&1
    tm set-hook -g alert-bell "run-shell 'echo bell >>$E2E_TMP/bells'" >/dev/null 2>&1
}
bells() { [ -f "$E2E_TMP/bells" ] && wc -l <"$E2E_TMP/bells" | tr -d ' ' || echo 0; }

rentop_start -s 150x34 --refresh 2 --timeout 6 || { echo "not ok - rentop starts"; exit 1; }
tm_bell_hook
# every figure the tests need, in one read of the simulator (the clock is
# manual: they hold until an action changes them)
eval "$(sim_state "' '.join('%s=%s' % kv for kv in (lambda s, r, b: [
    ('FIRST', min(x['id'] for x in insts)),
    ('SID', s['id']), ('SID_STORAGE', '%.3f' % s['storage_total_cost']), ('SID_FULL', '%.3f' % s['dph_total']),
    ('RID', r['id']), ('RID_DPH', r['dph_total']),
    ('BID', b['id']), ('BID_MB', b['min_bid']), ('BID_CUR', '%.3f' % b['dph_base']), ('BID_MBS', '%.3f' % b['min_bid']),
    ('NRUN', sum(1 for x in insts if x.get('actual_status') == 'running' and x.get('intended_status') == 'running')),
])(next(x for x in insts if x.get('intended_status') == 'stopped' and x.get('actual_status') == 'exited'),
   next(x for x in insts if x.get('actual_status') == 'running' and x.get('intended_status') == 'running' and not x.get('is_bid') and x['id'] != min(y['id'] for y in insts)),
   next(x for x in insts if x.get('is_bid') and x.get('actual_status') == 'running')))")"
[ -n "${BID:-}" ] || { echo "not ok - the seed has the instances the tests need"; exit 1; }
wait_for "$FIRST" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

# the dollar figure after "burn " in the header
header_burn() { screen | sed -n 's/.*burn \$\([0-9.]*\)\/h.*/\1/p' | head -n 1; }

t_column_sums_to_burn() {
    # the whole list: the burn exact, no bound (burn >=$ while partial)
    wait_for 'burn $' 20 || return 1
    # every row's $/H cell, as drawn (the only dollar figure of a row)
    sum=$(screen | grep -E '^ *[0-9]{7} ' | grep -oE '\$[0-9]+\.[0-9]+' | tr -d '$' |
        awk '{ t += $1 } END { printf "%.3f", t }')
    burn=$(header_burn)
    note "column sum $sum, header burn $burn"
    awk -v a="$sum" -v b="$burn" 'BEGIN { d = a - b; exit !(d < 0.0065 && d > -0.0065) }' ||
        { fail "the \$/H column sums to $sum, the burn says $burn"; return 1; }
    # a stopped row costs its storage, not its full price
    line_with "$SID" | grep -qF -- "\$$SID_STORAGE" ||
        { fail "stopped row $SID does not show its storage \$$SID_STORAGE: $(line_with "$SID")"; return 1; }
    line_with "$SID" | grep -qF -- "\$$SID_FULL" && { fail "stopped row $SID shows its full price \$$SID_FULL"; return 1; }
    return 0
}

t_counts() {
    wait_for_re "$NRUN running [0-9]+ booting [0-9]+ stopped 4 failed" 5
}

t_sweep_age_when_asked() {
    # fresh: no sweep age in the header (it would only tick); asked for, it
    # is said: r and :refresh
    wait_for "refreshed " 10 || return 1
    screen | head -n 2 | grep -q "sweep .* ago" && { fail "a sweep age in a fresh header"; return 1; }
    keys r
    wait_for_re "refreshing\.\.\. \(the last whole sweep (<10s|[0-9]+s|[0-9]+m) ago\)" 5 || return 1
    keys Escape
    cmd refresh
    wait_for "refreshing... (the last whole sweep" 5
}

t_low_runway() {
    burn=$(header_burn)
    b0=$(bells)
    # ten hours of runway: under the 24 h warning
    credit=$(awk -v b="$burn" 'BEGIN { printf "%.2f", b * 10 }')
    sim_post /__sim/set "{\"what\":\"user\",\"field\":\"credit\",\"value\":$credit}" || return 1
    keys r
    wait_for_re "runway (9h5[0-9]m|10h0[0-9]m)" 20 || return 1
    sleep 4   # two refreshes more: the bell rang once for the crossing
    b1=$(bells)
    note "bells: $b0 before, $b1 after the warning"
    [ "$b1" -eq $((b0 + 1)) ] || { fail "expected one bell for the crossing, got $((b1 - b0))"; return 1; }
    # an hour: the alarm
    credit=$(awk -v b="$burn" 'BEGIN { printf "%.2f", b }')
    sim_post /__sim/set "{\"what\":\"user\",\"field\":\"credit\",\"value\":$credit}" || return 1
    keys r
    wait_for_re "runway (5[0-9]m|1h0[0-9]m)" 20 || return 1
    sleep 3
    b2=$(bells)
    [ "$b2" -eq $((b1 + 1)) ] || { fail "expected one bell for the alarm, got $((b2 - b1))"; return 1; }
    # the runway segment carries the alarm colour (not the header's)
    rl=$(screen_esc | grep -F "runway" | head -n 1)
    hl=$(screen_esc | grep -F "credit" | head -n 1 | sed 's/credit.*//')
    printf '%s' "$rl" | grep -q "$(printf '\033')\[[0-9;]*m[^$(printf '\033')]*runway" || { fail "no attribute before runway"; return 1; }
    keys 2
    wait_for_re "low money: runway .* under 1d00h" 10 || return 1
    wait_for_re "low money: runway .* under 2h00m \(alarm\)" 5 || return 1
    keys 1
    # back above: an event, no bell
    sim_post /__sim/set '{"what":"user","field":"credit","value":100000}' || return 1
    keys r
    wait_for_re "runway [0-9]+d" 20 || return 1
    sleep 2
    [ "$(bells)" -eq "$b2" ] || { fail "a bell rang when the money recovered"; return 1; }
    [ -n "$hl" ]
}

# the header's runway in hours ("10h05m" 10.08, "1d02h" 26, "45m" 0.75)
header_runway_h() {
    screen | sed -n 's/.*runway \([0-9dhm]*\).*/\1/p' | head -n 1 |
        awk '{ h = 0; s = $0
               if (match(s, /[0-9]+d/)) h += 24 * substr(s, RSTART, RLENGTH - 1)
               if (match(s, /[0-9]+h/)) h += substr(s, RSTART, RLENGTH - 1)
               if (match(s, /[0-9]+m/)) h += substr(s, RSTART, RLENGTH - 1) / 60
               printf "%.2f", h }'
}

# An instance that pays from its own prepaid credit does not draw on the
# account until that is spent: the runway counts the others' rates alone.
t_runway_prepaid() {
    burn=$(header_burn)
    credit=$(awk -v b="$burn" 'BEGIN { printf "%.2f", b * 10 }')
    sim_post /__sim/set "{\"what\":\"user\",\"field\":\"credit\",\"value\":$credit}" || return 1
    keys r
    wait_for_re "runway (9h5[0-9]m|10h0[0-9]m)" 20 || return 1
    # RID holds prepaid credit for 10,000 hours of its rate
    cb=$(awk -v d="$RID_DPH" 'BEGIN { printf "%.2f", d * 10000 }')
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$RID,\"field\":\"credit_balance\",\"value\":$cb}" || return 1
    want=$(awk -v c="$credit" -v b="$burn" -v d="$RID_DPH" 'BEGIN { printf "%.2f", c / (b - d) }')
    keys r
    i=0
    while [ $i -lt 40 ]; do
        got=$(header_runway_h)
        awk -v g="$got" -v w="$want" 'BEGIN { exit !(g > 0 && g >= w * 0.97 && g <= w * 1.03) }' && break
        sleep 0.5; i=$((i + 1))
    done
    note "runway ${got}h, want ${want}h (credit $credit, burn $burn, RID pays \$$RID_DPH/h from prepaid)"
    [ $i -lt 40 ] || { fail "the runway ignores RID's prepaid credit: ${got}h, want ${want}h"; return 1; }
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$RID,\"field\":\"credit_balance\",\"value\":0}" || return 1
    sim_post /__sim/set '{"what":"user","field":"credit","value":100000}' || return 1
    keys r
    wait_for_re "runway [0-9]+d" 20
}

# months AMOUNT: "covers N months" for a prepay of AMOUNT on instance RID
months() { awk -v a="$1" -v d="$RID_DPH" 'BEGIN { printf "covers %.1f months", a / (d * 720) }'; }

t_prepay_live() {
    select_row "$RID" || return 1
    keys '$'
    wait_for "Prepay instance $RID" 10 || return 1
    wait_for_flat "type an amount" 5 || return 1
    type_text "100"
    disc=$(awk -v d="$RID_DPH" 'BEGIN { m = 100 / (d * 720); r = 0.4 * m / 12; if (r > 0.4) r = 0.4;
        printf "discount %.1f%%", 100 * r }')
    wait_for_flat "$(months 100)" 10 || return 1
    wait_for_flat "$disc" 5 || return 1
    # it follows the keys: one more digit, ten times the months
    type_text "0"
    wait_for_flat "$(months 1000)" 10 || return 1
    keys Escape
    wait_gone "Prepay instance" 5 || return 1
    keys Escape
}

t_bid_low() {
    select_row "$BID" || return 1
    low=$(awk -v m="$BID_MB" 'BEGIN { printf "%.4f", m / 2 }')
    keys b
    wait_for_flat "Bid for instance $BID" 10 || return 1
    wait_for_flat "current bid \$$BID_CUR/h, min_bid \$$BID_MBS/h" 5 || return 1
    keys C-u
    type_text "$low"
    wait_for_flat "the instance will be outbid and stopped" 5 || return 1
    keys Enter
    wait_for "Bid under min_bid" 10 || return 1
    wait_for_flat "will be outbid and stopped" 5 || return 1
    keys Enter           # the second question starts on Cancel: back to the bid, as typed
    wait_for_flat "Bid for instance $BID" 10 || return 1
    wait_for "$low" 5 || return 1
    # neither the cancelled bid nor the prepay typed before was sent
    [ "$(sim_state "count('bid_price') + count('prepay')")" = 0 ] || { fail "a bid or a prepay was sent"; return 1; }
    keys Enter
    wait_for "Bid under min_bid" 10 || return 1
    keys Tab Enter       # Bid anyway
    sim_expect "round(float(inst($BID)['dph_base']), 4)" "$low" 15 || return 1
    keys Escape
}

t_cost_upper_bound() {
    # the live service may leave a stopped record's uptime_mins from its last
    # run (the simulator's keep_uptime): it says nothing of the GPU billed
    # now, so the known part stays storage only.  The label is set after the
    # uptime: once it shows, rentop has read both.
    sim_post /__sim/set '{"what":"sim","field":"keep_uptime","value":true}' || return 1
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$SID,\"field\":\"uptime_mins\",\"value\":90}" || return 1
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$SID,\"field\":\"label\",\"value\":\"uptimekept\"}" || return 1
    wait_for "uptimekept" 10 || return 1
    select_row "$SID" || return 1
    keys Enter
    wait_for "Instance $SID" 10 || return 1
    wait_for_re "cost so far +\\\$[0-9.,]+ to \\\$[0-9.,]+ \(upper bound" 5 || return 1
    wait_for_flat "GPU none of this run" 5 || return 1
    keys Escape
    sleep 0.3
    keys Escape
}

# row_colours: how many distinct colours the table rows below the selected
# first row are drawn in (resets to the default colours not counted)
row_colours() {
    screen_esc | sed -n 5,16p | grep -oE "$(printf '\033')\[[0-9;]*m" |
        grep -vE '\[(0|39|49|39;49)m' | sort -u | wc -l | tr -d ' '
}

t_hang() {
    wait_for "$FIRST" 10 || return 1
    keys g
    sleep 0.5
    before=$(row_colours)
    [ "$before" -gt 1 ] || { fail "the rows were in $before colour before the hang"; return 1; }
    sim_fault /api/v1/instances/ hang 1000 300000 || return 1
    sim_fault /api/v0/instances/ hang 1000 300000 || return 1
    wait_for_re "instances: no answer for [0-9]+ s, (this try gives up|retrying) in [0-9]+ s" 25 || return 1
    # the rows are dimmed: one colour for running and failed rows alike
    during=$(row_colours)
    [ "$during" = 1 ] || { fail "rows drawn in $during colours while the list is late"; return 1; }
    # the balance still answers: not OFFLINE
    keys r
    sleep 2
    not_on_screen "OFFLINE" || return 1
    wait_for_re "retrying in [0-9]+ s" 25 || return 1
    sim_post /__sim/fault '{"clear":true}' || return 1
    wait_gone "instances: no answer" 30 || return 1
    after=$(row_colours)
    [ "$after" -gt 1 ] || { fail "rows still in $after colour after the recovery"; return 1; }
    keys 2
    wait_for_re "instances: no answer for" 10 || return 1
    wait_for_re "the service answers again after" 10 || return 1
    keys 1
}

t_offline() {
    sim_fault /api/ drop 100000 || return 1
    keys r
    wait_for_re "OFFLINE *$" 40 || return 1
    wait_for "burn ?" 5 || return 1
    # stale: the header says how old the rows may be
    wait_for_re "refreshed [0-9:]+  sweep (<10s|[0-9]+s|[0-9]+m) ago" 5 || return 1
    not_on_screen "runway" || return 1
    not_on_screen "\$0.000/h" || return 1
    sim_post /__sim/fault '{"clear":true}' || return 1
    keys r
    wait_gone "OFFLINE" 30 || return 1
    wait_for "runway" 10
}

tap() {
    keys Escape
    sleep 0.2
    t0=$(date +%s)
    e2e_tap "$@"
    note "took $(( $(date +%s) - t0 )) s"
}
tap "\$/H is what each row costs now (a stopped row: storage) and sums to the header's burn" t_column_sums_to_burn
tap "the header counts instances by state" t_counts
tap "the sweep age: not in a fresh header, said when asked for (r, :refresh)" t_sweep_age_when_asked
tap "runway under 24 h warns, under 2 h alarms: colour, one bell per crossing, events" t_low_runway
tap "the prepay prompt shows months and discount as the amount is typed; Esc sends nothing" t_prepay_live
tap "the runway counts a prepaid instance as paying from its own credit first" t_runway_prepaid
tap "bid shows current bid and min_bid; under min_bid a second question, Cancel returns, confirm sends" t_bid_low
tap "cost so far of a stopped instance is a range with an upper bound" t_cost_upper_bound
tap "a hung list: dimmed rows, a countdown, not OFFLINE; outage and recovery are events" t_hang
tap "nothing answers: OFFLINE, burn ? and no runway; back when it answers" t_offline
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
