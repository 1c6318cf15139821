# logs_lib.sh: the start shared by the log view's scripts (test_logs.sh,
# test_logs_pacing.sh): the simulator and rentop (120x20, --log, the test
# clock: clock_advance), helpers
# over the simulator's endpoint logs, and t_open (L on llm-chat, asked in
# the CLI's form).  Sourced after lib.sh.

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -t -s 120x20 --log "$E2E_TMP/rentop.log" || { echo "not ok - rentop starts"; exit 1; }

printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
chmod 600 "$E2E_TMP/auth.hdr"

# simlog NAME: the simulator's whole log of an endpoint (the spec's form), one line a row.
simlog() {
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -X POST "$SIM_URL/get_endpoint_logs" \
        -d "{\"endpoint\":\"$1\",\"tail\":1000}" |
        python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["logs"].rstrip("\n") + "\n")'
}

# append NAME LINE: the simulator appends LINE (JSON string text) to NAME's
# log; rentop's clock jumps a poll interval (3 s): the next poll at once.
append() {
    sim_post /__sim/set "{\"what\":\"log\",\"endpoint\":\"$1\",\"line\":\"$2\"}" || return 1
    clock_advance 3
}

# logreqs: get_endpoint_logs requests served so far (both forms).
logreqs() { sim_state "count('get_endpoint_logs')"; }

# save_to PATH: `s`, replace the proposed path with PATH, Enter.
save_to() {
    keys s
    wait_for "Save log" 5 || return 1
    keys C-u
    type_text "$1"
    keys Enter
}

# t_open: L on the llm-chat endpoint shows its log, asked in the CLI's form.
t_open() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "llm-chat (" 20 || return 1
    keys L
    wait_for "Logs:  llm-chat" 10 || return 1
    wait_for "following (every 3s)" 15 || return 1
    # asked in the CLI's form: {"id","api_key","tail"} (tail: --log-lines,
    # 10000 by default), the key the Bearer
    # one; the spec's form never (simlog, below, is the first to use it)
    sim_expect "(lambda b: b.get('api_key') == '$SIM_KEY' and b.get('tail') == 10000 and isinstance(b.get('id'), int))(d['requests']['/get_endpoint_logs/']['last_body'])" true 5 ||
        return 1
    [ "$(sim_state "count('/get_endpoint_logs') - count('/get_endpoint_logs/')")" = 0 ] ||
        { fail "the spec's form was asked while the CLI's answers"; return 1; }
    # the last line of the simulator's log is on screen
    last=$(simlog llm-chat | tail -n 1 | cut -c1-60)
    wait_for "$last" 8 || return 1
}
