#!/bin/sh
# test_config_bind.sh: unbinding a key in the config really takes it away.
# `bind D none` (global) unbinds D in the table and the detail view and
# takes it out of the help; a refused bind line's warning stays on screen
# until a key is pressed, whatever other toast arrives meanwhile (12 s on
# the test clock); --test-clock takes nothing but a FIFO.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"

clear_filter() { keys Escape; sleep 0.2; keys Escape; }

# The README's `bind D none` and a refused line, in the user's config file.
t_unbind_start() {
    tm kill-server >/dev/null 2>&1
    e2e_home
    mkdir -p "$E2E_HOME/.config/rentop"
    printf 'bind D none\nbind Q frobnicate\n' >"$E2E_HOME/.config/rentop/config"
    rentop_start -t -s 140x34 || return 1
    wait_for "$(first_inst True)" 30 || return 1
    wait_for 'unknown action "frobnicate"' 10
}

t_warning_stays() {
    # another toast arrives (an instance goes offline) and 12 s pass on
    # rentop's clock (a toast lasts 10 s); a second for it to draw
    id=$(first_inst "$RUNNING")
    sim_post /__sim/instance "{\"id\":$id,\"actual_status\":\"offline\"}" || return 1
    wait_for_re "$id .*offline" 40 || return 1
    clock_advance 12 || return 1
    sleep 1
    on_screen 'unknown action "frobnicate"' || return 1
    keys j
    wait_gone 'unknown action "frobnicate"' 5
}

t_unbound_d() {
    id=$(first_inst "$RUNNING")
    select_row "$id" || return 1
    keys D
    sleep 1
    not_on_screen "Destroy instance" || return 1
    keys Enter
    wait_for "Instance $id" 10 || return 1
    keys D
    sleep 1
    not_on_screen "Destroy instance" || return 1
    keys Escape
    sleep 0.3
    keys '?'
    wait_for "Instances view" 10 || return 1
    screen | grep -E '^ +D(/X)? +destroy' && { fail "help lists D for destroy"; return 1; }
    not_on_screen "destroy (stops all billing" || return 1
    keys Escape
    clear_filter
    [ "$(sim_state "inst($id) is not None")" = true ] || { fail "instance $id was destroyed"; return 1; }
}

tap() {
    keys Escape Escape Escape
    sleep 0.3
    e2e_tap "$@"
}

e2e_tap "rentop starts with 'bind D none' and a refused bind line" t_unbind_start
e2e_tap "the refused bind line's warning stays until a key is pressed" t_warning_stays
tap "bind D none: D does nothing in the table or the detail view, and help does not list it" t_unbound_d
tap "q quits with status 0 (config run)" rentop_quit

# --test-clock takes a FIFO and nothing else (a test option: a plain file,
# or one that is missing, ends rentop before its screen with status 2).
t_test_clock_fifo_only() {
    for f in "$E2E_TMP/plain" "$E2E_TMP/missing"; do
        [ "$f" = "$E2E_TMP/plain" ] && : >"$f"
        tm kill-server >/dev/null 2>&1
        rentop_start -s 100x30 --test-clock "$f" || return 1
        rentop_wait_exit 10 || return 1
        [ "$RENTOP_RC" = 2 ] || { fail "rentop --test-clock $f exited with $RENTOP_RC"; return 1; }
        grep -q "test-clock .*not a FIFO" "$E2E_TMP/rentop.stderr" ||
            { fail "no 'not a FIFO' on stderr: $(cat "$E2E_TMP/rentop.stderr")"; return 1; }
    done
}
e2e_tap "--test-clock refuses anything but a FIFO (status 2)" t_test_clock_fifo_only
e2e_done
