#!/bin/sh
# test_logs_background.sh: what an open log keeps while it is not looked at.
# Lines written while another view is shown are all there on coming back
# (every open endpoint log is polled in the background), and where lines
# may have been lost a marker line says so, on screen and in a saved file;
# the requests of three open logs while hidden stay within the background
# rate; `v` through every stream and back keeps the lines held; an
# instance log keeps more than 1,000 lines with --log-lines 5000 (the tail
# asked follows it).
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -t -s 140x24 --log-lines 5000 || { echo "not ok - rentop starts"; exit 1; }

GAP="--- lines may be missing here (not polled for"

# logreqs: get_endpoint_logs requests served so far (both forms).
logreqs() { sim_state "count('get_endpoint_logs')"; }

# held: the "N lines" of the status line.
held() { screen | sed -n 's/.*  \([0-9][0-9]*\) lines.*/\1/p' | tail -n 1; }

# save_to PATH: `s`, replace the proposed path with PATH, Enter.
save_to() {
    keys s
    wait_for "Save log" 5 || return 1
    keys C-u
    type_text "$1"
    keys Enter
    wait_for "saved " 5
}

# write_marks FROM TO: the simulator appends E2E-BG-FROM..TO to llm-chat's log.
write_marks() {
    python3 - "$SIM_URL" "$1" "$2" <<'EOF'
import json, sys, urllib.request
url, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(a, b + 1):
    body = json.dumps({"what": "log", "endpoint": "llm-chat", "line": "E2E-BG-%d" % i}).encode()
    urllib.request.urlopen(urllib.request.Request(url + "/__sim/set", body,
                           {"Content-Type": "application/json"}), timeout=10).read()
EOF
}

# check_marks FILE N: E2E-BG-1..N in order, and wherever some are missing
# a gap marker line stands between the neighbours.  Prints the missing count.
check_marks() {
    python3 - "$1" "$2" "$GAP" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
n, gap = int(sys.argv[2]), sys.argv[3]
seen, last, missing = [], 0, 0
gap_since = False
for l in lines:
    if l.startswith(gap):
        gap_since = True
        continue
    m = re.fullmatch(r"E2E-BG-(\d+)", l)
    if not m:
        continue
    k = int(m.group(1))
    if k != last + 1 and not gap_since:
        print("# FAIL: E2E-BG-%d follows E2E-BG-%d with no gap marker between" % (k, last))
        sys.exit(1)
    missing += k - last - 1
    last, gap_since = k, False
if last != n:
    print("# FAIL: the last mark held is E2E-BG-%d, not %d" % (last, n)); sys.exit(1)
print(missing)
EOF
}

t_open() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "llm-chat (" 20 || return 1
    # three endpoint logs open; llm-chat's shown
    for e in $(sim_state "' '.join(e['endpoint_name'] for e in d['endpoints'][:3] if e['endpoint_name'] != 'llm-chat')"); do
        keys :
        type_text "logs $e"
        keys Enter
        wait_for " $e" 10 || return 1
    done
    keys :
    type_text "logs llm-chat"
    keys Enter
    wait_for "following (every 3s)" 15 || return 1
    # the status line says what the stream is
    on_screen "logs: the endpoint's log" || return 1
}

t_hidden() {
    keys 1
    wait_for "Instances" 5 || return 1
    t0=$(date +%s.%N)
    n0=$(logreqs)
    # 600 lines in four batches, each followed by 15 s on rentop's clock
    # (the background interval): more than the 500 the service keeps, so
    # that only polls made while hidden can read them all
    for b in 0 1 2 3; do
        write_marks $((b * 150 + 1)) $((b * 150 + 150)) || { fail "the simulator refused a line"; return 1; }
        clock_advance 15 || return 1
        sleep 0.5
    done
    sleep 1
    n1=$(logreqs)
    t1=$(date +%s.%N)
    # three logs hidden: each every 15 s (logfollow_interval), so at most
    # 3 x (t / 15 + 1) over t on rentop's clock (the real time and the
    # 60 s of jumps); at least one poll in that time
    python3 -c 'import sys; d, t = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]) + 60; print("# get_endpoint_logs: %d requests in %.1f s (rentop clock), 3 logs hidden" % (d, t)); sys.exit(0 if 1 <= d <= 3 * (t / 15 + 1) else 1)' \
        "$((n1 - n0))" "$t0" "$t1" || { fail "not polled in the background at the bounded rate"; return 1; }
    keys 6
    wait_for "E2E-BG-600" 10 || return 1
    save_to "$E2E_TMP/bg.log" || return 1
    miss=$(check_marks "$E2E_TMP/bg.log" 600) || { echo "$miss"; return 1; }
    note "marks missing (behind a gap marker): $miss of 600"
}

t_gap_marker() {
    # far more lines between two polls than an answer holds: a gap
    sim_post /__sim/set '{"what":"sim","field":"log_rate","value":1000}' || return 1
    wait_for "(gap: lines may be missing)" 15
    rc=$?
    sim_post /__sim/set '{"what":"sim","field":"log_rate","value":0.5}' || return 1
    [ $rc = 0 ] || return 1
    # the marker is a line of its own (its new lines push it up): a filter
    # that no log line matches still shows it
    keys '&'
    wait_for "Filter" 5 || return 1
    type_text "E2E-no-line-has-this"
    keys Enter
    wait_for "$GAP" 5 || return 1
    keys '&' C-u Enter
    wait_gone "& E2E-no-line-has-this" 5 || return 1
    save_to "$E2E_TMP/gap.log" || return 1
    grep -q -- "^$GAP [0-9][0-9a-z]*) ---\$" "$E2E_TMP/gap.log" ||
        { fail "no gap marker line in the saved file"; return 1; }
}

t_stream_round_trip() {
    keys G
    sleep 1
    before=$(held)
    [ "${before:-0}" -gt 600 ] || { fail "only ${before:-?} lines held before v"; return 1; }
    for s in info0 info1 trace debug; do
        keys v
        wait_for "llm-chat:$s" 5 || return 1
        wait_for "$s: level" 5 || return 1
    done
    on_screen "debug: level 3 of 0-3, the least detail" || return 1
    keys v
    wait_for "logs: the endpoint's log" 5 || return 1
    sleep 1
    after=$(held)
    note "lines held: $before before v, $after after a full cycle"
    [ "${after:-0}" -ge "$before" ] || { fail "v lost lines: $before -> $after"; return 1; }
    # every line saved before (bg.log, t_hidden) is still held, in order
    save_to "$E2E_TMP/rt.log" || return 1
    head -n "$(wc -l <"$E2E_TMP/bg.log")" "$E2E_TMP/rt.log" | cmp -s - "$E2E_TMP/bg.log" ||
        { fail "the lines held before the v cycle are not all there"; return 1; }
}

t_instance_lines() {
    id=$(sim_state "min((x for x in insts if x.get('actual_status') == 'running' and x.get('start_date')), key=lambda x: x['start_date'])['id']")
    mins=$(sim_state "int((d['now'] - inst($id)['start_date']) / 60)")
    [ "$mins" -gt 2000 ] || { fail "instance $id started only $mins minutes ago"; return 1; }
    keys :
    type_text "logs $id"
    keys Enter
    wait_for " instance $id" 10 || return 1
    wait_for "following (every 10s)" 15 || return 1
    sim_expect "[v['last_body'] for k, v in d['requests'].items() if 'request_logs/$id' in k][0].get('tail') == '5000'" true 5 || return 1
    n=$(held)
    note "instance $id (up $mins min): $n lines held"
    [ "${n:-0}" -gt 1000 ] || { fail "only ${n:-?} lines held with --log-lines 5000"; return 1; }
}

tap() { ts=$(date +%s); e2e_tap "$@"; note "($(( $(date +%s) - ts ))s)"; }

tap "three endpoint logs open; the stream named" t_open
tap "lines written while hidden are all there or behind a gap marker; background polls bounded" t_hidden
tap "a gap is marked by a line, on screen and in the saved file" t_gap_marker
tap "v through every stream and back keeps the lines" t_stream_round_trip
tap "an instance log keeps more than 1,000 lines with --log-lines 5000" t_instance_lines
e2e_done
