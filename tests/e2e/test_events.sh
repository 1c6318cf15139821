#!/bin/sh
# test_events.sh: the event log (2) of issue 12: an instance's state change
# is written to it ("running -> offline"), and Enter on an event cut at the
# screen's edge (80x24) opens it whole; any key closes it; `/` filters the
# log (text, !text) and Esc clears.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 80x24 --refresh 2 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"

t_state_event() {
    id=$(first_inst "$RUNNING")
    sim_post /__sim/instance "{\"id\":$id,\"actual_status\":\"offline\"}" || return 1
    keys 2
    wait_for "instance $id" 20 || return 1
    wait_for_re "instance $id \\([^)]*\\): running -> offline" 20 || return 1
    keys 1
}

# / in the event log filters it (text, !text); Esc clears.
t_events_filter() {
    keys 2
    wait_for "running -> offline" 10 || return 1
    keys /; type_text "-> offline"
    wait_for_re "Events: [0-9]+ matching -> offline" 10 || return 1
    on_screen "running -> offline" || return 1
    keys C-u; type_text "!offline"
    wait_for "matching !offline" 10 || return 1
    not_on_screen "running -> offline" || return 1
    keys Enter Escape
    wait_gone "matching" 10 || return 1
    on_screen "running -> offline" || return 1
    keys 1
}

t_event_open() {
    keys 2
    keys /; type_text "destroy it"; keys Enter
    wait_for "Events: " 10 || return 1
    # the failure announcement is longer than 80 columns: cut on the line
    line=$(line_with "rent another")
    [ -z "$line" ] || { fail "the event fits the line; no test"; return 1; }
    keys Enter
    wait_for "any key closes" 10 || return 1
    wait_for_flat "destroy it and rent another offer" 5 || return 1
    keys x
    wait_gone "any key closes" 10 || return 1
    keys Escape; keys 1
}

tap "a state change is an event: running -> offline" t_state_event
tap "/ filters the event log: text, !text; Esc clears" t_events_filter
tap "Enter opens a long event whole; any key closes it" t_event_open
tap "q quits with status 0" rentop_quit
e2e_done
