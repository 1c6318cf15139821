#!/bin/sh
# test_logs.sh: the log view.  `L` on an endpoint of the serverless view
# follows its log: the lines are the simulator's, lines it appends appear
# once, never twice (the saved buffer equals the simulator's log, in order);
# scrolling up pauses following (a new line does not move the window) and G
# resumes; `/` search marks the match and n moves on; `&` filters; `s` saves
# what is shown (the secrets of the log masked), asks before overwriting and
# starts on Cancel; a hostile line is drawn inert; no request after `q`; the
# CLI's form goes first (the key in its body, as the official CLI sends
# it), the spec's form when the CLI's is absent, and `v` picks a level
# stream; the key never reaches the screen or the --log file, even when the
# log echoes it; `L` on an instance shows its container log (request_logs,
# then the result_url, retried past an object store's 403s as the CLI
# does).  The pace of the polls and the failures (a 429, a hang):
# test_logs_pacing.sh; what an open log keeps while hidden:
# test_logs_background.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/logs_lib.sh"


t_key_echo() {
    # a log that echoes the account key: starred out before it is stored
    append llm-chat "E2E-echo $SIM_KEY end"
    wait_for "E2E-echo " 10 || return 1
    no_secret_on_screen || return 1
    on_screen "E2E-echo ****" || return 1
    grep -qF "$SIM_KEY" "$E2E_TMP/rentop.log" && { fail "the key is in the --log file"; return 1; }
    grep -q "answer held a key" "$E2E_TMP/rentop.log" || { fail "the log does not say a key was hidden"; return 1; }
    return 0
}

t_append_once() {
    append llm-chat "E2E-MARK-one"
    wait_for "E2E-MARK-one" 10 || return 1
    append llm-chat "E2E-MARK-two"
    wait_for "E2E-MARK-two" 10 || return 1
    n0=$(logreqs) # one more poll: the same lines answered again
    sim_expect "count('get_endpoint_logs') > $n0" true 10 || return 1
    sleep 0.5
    n1=$(screen | grep -c "E2E-MARK-one")
    n2=$(screen | grep -c "E2E-MARK-two")
    [ "$n1" = 1 ] && [ "$n2" = 1 ] || { fail "marks shown $n1 and $n2 times"; return 1; }
    # the whole buffer equals the simulator's log (no line twice, none lost)
    save_to "$E2E_TMP/all.log" || return 1
    wait_for "saved " 5 || return 1
    simlog llm-chat >"$E2E_TMP/sim.log"
    python3 - "$E2E_TMP/all.log" "$E2E_TMP/sim.log" <<'EOF' || return 1
import sys
got = open(sys.argv[1]).read().splitlines()
sim = open(sys.argv[2]).read().splitlines()
if len(set(got)) != len(got):
    print("# FAIL: a line twice in the saved log"); sys.exit(1)
if not got or sim[:len(got)] != got:
    print("# FAIL: the saved log is not the simulator's (%d lines saved, %d held)" % (len(got), len(sim)))
    sys.exit(1)
if "E2E-MARK-two" not in got:
    print("# FAIL: the mark is not in the saved log"); sys.exit(1)
EOF
}

t_follow_pause() {
    keys k k k
    wait_for "following paused, G to resume" 5 || return 1
    top=$(screen | sed -n 4p)
    append llm-chat "E2E-MARK-paused"
    n0=$(logreqs)
    sim_expect "count('get_endpoint_logs') > $n0" true 10 || return 1
    sleep 1
    not_on_screen "E2E-MARK-paused" || return 1
    [ "$(screen | sed -n 4p)" = "$top" ] || { fail "the window moved while paused"; return 1; }
    keys G
    wait_for "E2E-MARK-paused" 5 || return 1
    wait_for "following (every 3s)" 5 || return 1
}

t_search_filter() {
    keys /
    type_text "E2E-MARK-one"
    keys Enter
    wait_for_re "^>.*E2E-MARK-one" 5 || return 1
    wait_for "following paused" 5 || return 1
    keys G
    keys / C-u
    type_text "autoscaler"
    keys Enter
    wait_for_re "^>.*autoscaler" 5 || return 1
    l1=$(screen | grep "^>" | head -n 1)
    echo "$l1" | grep -q "autoscaler" || { fail "no marked autoscaler line: $l1"; return 1; }
    keys n
    sleep 0.5
    l2=$(screen | grep "^>" | head -n 1)
    echo "$l2" | grep -q "autoscaler" || { fail "n: no marked autoscaler line: $l2"; return 1; }
    [ "$l1" != "$l2" ] || { fail "n did not move: $l1"; return 1; }
    keys Escape G
    # & keeps only the matching lines
    keys '&'
    wait_for "Filter" 5 || return 1
    type_text "health check"
    keys Enter
    wait_for "& health check:" 5 || return 1
    screen | sed -n '4,16p' | grep -v '^ *$' | grep -v "health check" | grep -q '\[20' &&
        { fail "a line without 'health check' is shown"; return 1; }
    on_screen "health check" || return 1
}

t_save() {
    # a secret in the log: masked before it is stored
    epkey=$(sim_state "[e['api_key'] for e in d['endpoints'] if e['endpoint_name'] == 'llm-chat'][0]")
    append llm-chat "health check E2E HF_TOKEN=hf_e2e_secret_value key $epkey"
    wait_for "HF_TOKEN=<hidden>" 10 || return 1
    not_on_screen "hf_e2e_secret_value" || return 1
    save_to "$E2E_TMP/hc.log" || return 1
    wait_for "saved " 5 || return 1
    grep -v "health check" "$E2E_TMP/hc.log" && { fail "the saved file has unfiltered lines"; return 1; }
    simlog llm-chat | grep "health check" | grep -v "HF_TOKEN" >"$E2E_TMP/hc.want"
    # the simulator's log read after the save: the saved lines are its beginning
    grep -v "HF_TOKEN" "$E2E_TMP/hc.log" >"$E2E_TMP/hc.got"
    head -n "$(wc -l <"$E2E_TMP/hc.got")" "$E2E_TMP/hc.want" | cmp -s - "$E2E_TMP/hc.got" ||
        { fail "the saved lines are not the shown ones"; diff "$E2E_TMP/hc.got" "$E2E_TMP/hc.want" | head -5; return 1; }
    grep -q "HF_TOKEN=<hidden> key ep_<hidden>" "$E2E_TMP/hc.log" || { fail "the masked line is not saved"; return 1; }
    grep -qF "hf_e2e_secret_value" "$E2E_TMP/hc.log" && { fail "a secret was saved"; return 1; }
    grep -qF "$epkey" "$E2E_TMP/hc.log" && { fail "the endpoint key was saved"; return 1; }
    [ "$(stat -c %a "$E2E_TMP/hc.log")" = 600 ] || { fail "mode $(stat -c %a "$E2E_TMP/hc.log")"; return 1; }
    # again to the same file: asks, starts on Cancel
    cp "$E2E_TMP/hc.log" "$E2E_TMP/hc.before"
    keys '&' C-u Enter
    save_to "$E2E_TMP/hc.log" || return 1
    wait_for "Overwrite it?" 5 || return 1
    keys Enter
    wait_for "not saved" 5 || return 1
    cmp -s "$E2E_TMP/hc.log" "$E2E_TMP/hc.before" || { fail "overwritten after Cancel"; return 1; }
    save_to "$E2E_TMP/hc.log" || return 1
    wait_for "Overwrite it?" 5 || return 1
    keys Tab Enter
    wait_for "saved " 5 || return 1
    grep -q "worker" "$E2E_TMP/hc.log" && [ "$(wc -l <"$E2E_TMP/hc.log")" -gt "$(wc -l <"$E2E_TMP/hc.before")" ] ||
        { fail "not overwritten with the whole log"; return 1; }
}

t_hostile() {
    append llm-chat '\u001b]0;pwned-title\u0007E2E-hostile \u001b[31mred\u001b[0m \u009b2J\u202eevil'
    wait_for "E2E-hostile" 10 || return 1
    title=$(tm display -p -t "$E2E_SESSION" '#{pane_title}')
    case $title in *pwned*) fail "the log set the terminal title"; return 1 ;; esac
    screen_esc | grep "E2E-hostile" | grep -q '31m' && { fail "the log's colour reached the terminal"; return 1; }
    on_screen "Logs:  llm-chat" || return 1
}

t_spec_form() {
    # a run server without the CLI's form (a 404 on it): the spec's form
    sim_fault /get_endpoint_logs/ 404 1000
    n0=$(sim_state "count('/get_endpoint_logs') - count('/get_endpoint_logs/')")
    epname=$(sim_state "d['endpoints'][1]['endpoint_name']")
    keys :
    type_text "logs $epname"
    keys Enter
    wait_for "$epname" 5 || return 1
    wait_for_re "^ \[20[0-9-]*T" 15 || return 1
    on_screen "following (every 3s)" || return 1
    sim_expect "count('/get_endpoint_logs') - count('/get_endpoint_logs/') > $n0" true 5 || return 1
    sim_post /__sim/fault '{"clear":true}'
    # the level streams: the CLI's form
    keys v
    wait_for "$epname:info0" 5 || return 1
    keys v
    wait_for "$epname:info1" 5 || return 1
    wait_for "autoscaler" 10 || return 1
    screen | sed -n '4,16p' | grep '\[20' | grep -qv autoscaler && { fail "info1 shows other lines"; return 1; }
    keys q
    wait_for "following (every 3s)" 5 || return 1
    on_screen "Logs:  llm-chat" || return 1
}

t_close() {
    keys q
    wait_for "Instances" 5 || return 1
    # a request already out when q was pressed may still land (the CLI
    # form's 404 falls back to the spec's form): wait until none has come for
    # 1.5 s (real: the answers), then none may come while 30 s pass on
    # rentop's clock (the 3 s poll and the 15 s background one) and a real 1.5
    n0=$(logreqs) quiet=0 tries=0
    while [ $quiet -lt 3 ] && [ $tries -lt 40 ]; do
        sleep 0.5; tries=$((tries + 1))
        n=$(logreqs)
        if [ "$n" = "$n0" ]; then quiet=$((quiet + 1)); else quiet=0 n0=$n; fi
    done
    clock_advance 30 || return 1
    sleep 1.5
    [ "$(logreqs)" = "$n0" ] || { fail "polled after the log was closed"; return 1; }
}

t_instance() {
    # the log copy's URL answers 403 twice (an object store's missing key),
    # then 404 until written, then the text: one request_logs, no error
    sim_fault /instance_logs/ 403 2
    r0=$(sim_state "count('request_logs')")
    keys L
    wait_for "Logs:  instance" 5 || return 1
    wait_for_re "epoch [0-9]+ step" 8 || return 1
    on_screen "following (every 10s)" || return 1
    [ "$(sim_state "count('request_logs') - $r0")" = 1 ] || { fail "request_logs asked again"; return 1; }
    [ "$(sim_state "count('/instance_logs/')")" -ge 3 ] || { fail "the 403s were not retried"; return 1; }
    not_on_screen "STALE" || return 1
    keys q
}

tap "L on an endpoint shows the simulator's log (the CLI's form, the key in its body)" t_open
tap "appended lines appear once; the buffer equals the simulator's log" t_append_once
tap "scrolling up pauses following; G resumes" t_follow_pause
tap "/ search with n, & filter" t_search_filter
tap "save: shown lines, secrets masked, overwrite asked (Cancel first)" t_save
tap "a hostile log line is inert" t_hostile
tap "the key echoed by a log is starred out, on screen and in --log" t_key_echo
tap "the spec's form when the CLI's is absent; v picks a stream" t_spec_form
tap "q closes the log and stops its polling" t_close
tap "L on an instance shows its container log past two 403s" t_instance
e2e_done
