#!/bin/sh
# test_history.sh: the `:` and `/` prompts keep their histories (issue 12):
# Tab completes `:theme ` with the shipped theme names and `:the` to
# `:theme `, and the other commands' arguments; a filter entered, cleared with Esc, comes back with `/` Up; both
# histories survive a restart (saved 0600 under $XDG_STATE_HOME/rentop/).
. "$(dirname "$0")/lib.sh"

XDG_STATE_HOME="$E2E_TMP/state"
export XDG_STATE_HOME
HIST="$XDG_STATE_HOME/rentop/history"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 120x30 || { echo "not ok - rentop starts"; exit 1; }
ID=$(first_inst "x.get('actual_status') == 'running'")

t_complete() {
    wait_for "$ID" 30 || return 1
    keys : ; type_text "theme "; keys Tab
    wait_for "monochrome" 10 || return 1
    on_screen "solarized-dark" || return 1
    on_screen "light" || return 1
    type_text "li"; keys Tab
    wait_for ":theme light" 10 || return 1
    keys Enter
    sleep 1
    keys : ; type_text "the"; keys Tab; type_text "X"
    wait_for ":theme X" 10 || { keys Escape; return 1; }  # a space was added after the word
    keys Escape
}

# Tab completes the arguments of the other commands too: :sort columns,
# :filter status= values, :offers fields and -t types, :reports machine
# ids, :detail instance ids (and the completed line runs), :ssh routes.
t_complete_args() {
    keys : ; type_text "sort st"; keys Tab; type_text "X"
    wait_for ":sort status X" 10 || { keys Escape; return 1; }
    keys Escape
    keys : ; type_text "filter status=ru"; keys Tab
    wait_for ":filter status=running" 10 || { keys Escape; return 1; }
    keys Escape
    keys : ; type_text "offers gpu_na"; keys Tab; type_text "X"
    wait_for ":offers gpu_nameX" 10 || { keys Escape; return 1; }  # no space: an operator follows
    keys Escape
    keys : ; type_text "offers -t re"; keys Tab
    wait_for ":offers -t reserved" 10 || { keys Escape; return 1; }
    keys Escape
    keys : ; type_text "ssh p"; keys Tab
    wait_for ":ssh proxy" 10 || { keys Escape; return 1; }
    keys Escape
    # the machine ids of the listed instances
    m1=$(sim_state "sorted(set(x['machine_id'] for x in insts if x.get('machine_id')))[0]")
    m2=$(sim_state "sorted(set(x['machine_id'] for x in insts if x.get('machine_id')))[-1]")
    keys : ; type_text "reports "; keys Tab
    wait_for "$m1" 10 || { keys Escape; return 1; }
    wait_for "$m2" 10 || { keys Escape; return 1; }
    keys Escape
    # an instance id, completed from a unique prefix, opens its detail
    pre=$(printf '%s' "$ID" | cut -c1-6)
    n=$(sim_state "len([x for x in insts if str(x['id']).startswith('$pre')])")
    while [ "$n" -gt 1 ]; do
        pre=$(printf '%s' "$ID" | cut -c1-$(( ${#pre} + 1 )))
        n=$(sim_state "len([x for x in insts if str(x['id']).startswith('$pre')])")
    done
    keys : ; type_text "detail $pre"; keys Tab
    wait_for ":detail $ID" 10 || { keys Escape; return 1; }
    keys Enter
    wait_for "Instance $ID" 10 || return 1
    keys Escape
    wait_gone "Instance $ID" 10
}

t_filter_recall() {
    keys / ; type_text "zzhist"; keys Enter
    sleep 1
    keys Escape
    sleep 1
    keys /
    sleep 0.5
    not_on_screen "zzhist" || return 1
    keys Up
    wait_for "/zzhist" 10 || return 1
    keys Escape
    wait_gone "zzhist" 10
}

t_saved() {
    [ -f "$HIST" ] || { fail "no $HIST"; return 1; }
    mode=$(stat -c %a "$HIST")
    [ "$mode" = 600 ] || { fail "history mode $mode"; return 1; }
    grep -qx "/zzhist" "$HIST" || { fail "filter not saved"; return 1; }
    grep -qx ":theme light" "$HIST" || { fail "command not saved"; return 1; }
}

t_secret_skipped() {
    keys / ; type_text "mytoken123"; keys Enter
    sleep 1
    keys Escape
    sleep 0.5
    ! grep -q "mytoken123" "$HIST" || { fail "a secret-looking line was saved"; return 1; }
}

t_restart() {
    rentop_quit || return 1
    tm kill-server >/dev/null 2>&1; sleep 0.3
    rentop_start -s 120x30 || return 1
    wait_for "$ID" 30 || return 1
    keys / ; keys Up
    wait_for "/zzhist" 10 || return 1
    keys Escape
    keys : ; keys Up; keys Up
    wait_for ":theme light" 10 || return 1
    keys Escape
}

tap ":theme <Tab> lists the themes, :the<Tab> completes to :theme" t_complete
tap "Tab completes arguments: columns, states, query fields, types, routes, machine and instance ids" t_complete_args
tap "a filter entered and cleared comes back with / Up" t_filter_recall
tap "the history file is 0600 and holds both kinds" t_saved
tap "a line naming a token is not saved" t_secret_skipped
tap "after a restart the histories are still there" t_restart
tap "quits cleanly" rentop_quit
e2e_done
