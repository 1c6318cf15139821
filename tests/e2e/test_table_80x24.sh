#!/bin/sh
# test_table_80x24.sh: the instance table at 80x24 and its smaller keys
# (issue 12): the GPU column keeps the model and cut cells end with "…";
# the `/` filter takes column=value and !text; F1 opens help, F10 quits.
# The event log's side of the same issue: test_events.sh.  ? opens help at
# the view's section and `/` there filters the help itself; a help line
# longer than 80 columns is wrapped at words, every line of it shown by a
# filter matching it; the account's audit log has its section.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 80x24 --refresh 2 || { echo "not ok - rentop starts"; exit 1; }
wait_for "$(first_inst True)" 30 || { screen_dump; echo "not ok - the table appears"; exit 1; }

t_f1_help() {
    keys F1
    wait_for "Instances view" 10 || return 1
    keys Escape
    wait_gone "Instances view" 10
}

t_f10_quits() {
    keys F10
    rentop_wait_exit 15 || return 1
    [ "$RENTOP_RC" = 0 ] || { fail "status $RENTOP_RC"; return 1; }
    sanitizer_clean
}

t_narrow() {
    # at 80 columns the GPU column keeps the model, and cut cells end with an ellipsis
    wait_for "V100" 10 || return 1
    not_on_screen "Tesla V1" || return 1
    screen | sed -n '4,$p' | grep -q "…" || { fail "no cut cell ends with an ellipsis"; return 1; }
}

t_filter_terms() {
    keys /; type_text "status=stopped"; keys Enter
    wait_for_re "Instances [0-9]+/[0-9]+" 10 || return 1
    sleep 0.5
    n=$(screen | sed -n '4,22p' | grep -c " stopped ")
    [ "$n" -ge 1 ] || { fail "no stopped row under status=stopped"; return 1; }
    screen | sed -n '4,22p' | grep -q " running " && { fail "a running row passes status=stopped"; return 1; }
    keys Escape
    wait_for_re "Instances [0-9]+ " 10 || return 1
    keys /; type_text "!running"; keys Enter
    wait_for_re "Instances [0-9]+/[0-9]+" 10 || return 1
    sleep 0.5
    screen | sed -n '4,22p' | grep -q " running " && { fail "a running row passes !running"; return 1; }
    screen | sed -n '4,22p' | grep -qE " (stopped|crashed|offline|unknown) " || { fail "!running hides everything"; return 1; }
    keys Escape
    wait_for_re "Instances [0-9]+ " 10
}

# ? opens help at the current view's section; / there filters the help
# itself (not the table under it); Esc clears the filter, then closes.
t_help_filter() {
    keys 3
    wait_for "Offers: " 10 || return 1
    keys '?'
    wait_for "Help  (Esc" 10 || return 1
    n=$(screen | grep -n "^ *Offers view" | head -n 1 | cut -d: -f1)
    [ -n "$n" ] && [ "$n" -le 4 ] || { fail "help is not at the offers section (line ${n:-none})"; return 1; }
    screen | grep -qE "^ +s +query line for a new search" || { fail "the offers section lacks s"; return 1; }
    screen | grep -qE "^ +/ +filter the rows shown" || { fail "the offers section lacks /"; return 1; }
    keys /; type_text "new search"
    wait_for "matching: new search" 10 || return 1
    not_on_screen "Instances view" || return 1
    on_screen "r: search again" || return 1
    keys Enter Escape
    wait_gone "matching:" 10 || return 1
    # wider than the text column (55 cells at 80): wrapped, whole, never cut
    keys /; type_text "scp-url"
    wait_for "matching: scp-url" 10 || return 1
    wait_for_flat "Y copy the scp command of /workspace over the instance's SSH route and show its scp:// URL (as the CLI's scp-url); :scp ID" 10 || return 1
    screen | grep -qE "^ +Y +copy the scp command" || { fail "the Y line is not in the help's columns"; return 1; }
    screen | grep -qE "^ {20,}[^ ].*:scp ID$" || { fail "the Y line's end is not on a continuation line"; return 1; }
    keys Escape
    wait_gone "matching:" 10 || return 1
    keys /; type_text "audit"
    wait_for "matching: audit" 10 || return 1
    wait_for_re "^ Account view: Audit log \\(:audit\\)" 10 || return 1
    screen | grep -qE "^ +/ +filter the rows shown" || { fail "the audit log's section lacks /"; return 1; }
    keys Escape
    wait_gone "matching:" 10 || return 1
    on_screen "Help  (Esc" || return 1
    keys Escape
    wait_gone "Help  (Esc" 10 || return 1
    not_on_screen "filter:" || return 1
    keys 1
}

tap "/ filter: status=stopped and !running" t_filter_terms
tap "80x24: GPU names keep their model, cut cells end with an ellipsis" t_narrow
tap "? opens help at the view's section, / filters the help itself" t_help_filter
tap "F1 opens help" t_f1_help
tap "F10 quits" t_f10_quits
e2e_done
