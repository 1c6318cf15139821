#!/bin/sh
# test_signals.sh: the ways rentop is stopped besides q.  SIGTERM, SIGHUP
# and SIGINT end it cleanly with the terminal given back and the status a
# shell expects of a killed program (128 + the signal); C-z suspends it to
# the shell (curses left, the process stopped) and fg brings the whole
# screen back; C-c (a key in raw mode) quits at once with status 0.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
FIRST=$(first_inst True)

# signal_exit SIG STATUS: start rentop, send SIG, expect exit STATUS and a sane terminal.
signal_exit() {
    tm kill-server >/dev/null 2>&1
    rentop_start -s 100x30 || return 1
    wait_for "$FIRST" 30 || return 1
    pid=$(rentop_pid)
    [ -n "$pid" ] || { fail "no rentop process"; return 1; }
    kill "-$1" "$pid" || return 1
    rentop_wait_exit 20 || return 1
    note "exit status after SIG$1: $RENTOP_RC"
    [ "$RENTOP_RC" = "$2" ] || { fail "rentop exited with status $RENTOP_RC after SIG$1, not $2"; return 1; }
    sanitizer_clean || return 1
    term_restored
}

t_sigterm() { signal_exit TERM 143; }
t_sighup() { signal_exit HUP 129; }
t_sigint() { signal_exit INT 130; }

t_suspend_resume() {
    tm kill-server >/dev/null 2>&1
    # typed at an interactive shell with job control, as a user runs it
    rentop_start -i -s 100x30 || return 1
    wait_for "$FIRST" 30 || return 1
    pid=$(rentop_pid)
    [ -n "$pid" ] || { fail "no rentop process"; return 1; }
    keys C-z
    wait_begin 10
    until [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = T ]; do
        wait_tick || { fail "rentop did not stop on C-z"; return 1; }
    done
    # curses let the terminal go: the shell's prompt is back, the table gone
    wait_gone "$FIRST" 10 || return 1
    wait_for "e2e-shell" 10 || return 1
    alt=$(tm display -p -t "$E2E_SESSION" '#{alternate_on}')
    [ "$alt" = 0 ] || { fail "still on the alternate screen while suspended"; return 1; }
    type_text fg
    keys Enter
    wait_for "$FIRST" 15 || return 1
    wait_for "credit" 5 || return 1
    # it answers keys again, then quits normally
    keys '?'
    wait_for "Help  (Esc" 10 || return 1
    keys Escape
    wait_gone "Help  (Esc" 10 || return 1
    keys q
    wait_gone "$FIRST" 15 || return 1
    type_text 'echo "rentop-status-$?"'
    keys Enter
    wait_for "rentop-status-0" 10 || return 1
    sanitizer_clean || return 1
    term_restored
}

t_ctrl_c() {
    tm kill-server >/dev/null 2>&1
    rentop_start -s 100x30 || return 1
    wait_for "$FIRST" 30 || return 1
    keys C-c
    rentop_wait_exit 20 || return 1
    [ "$RENTOP_RC" = 0 ] || { fail "rentop exited with status $RENTOP_RC on C-c"; return 1; }
    sanitizer_clean || return 1
    term_restored
}

tap "SIGTERM ends rentop with status 143 and gives the terminal back" t_sigterm
tap "SIGHUP ends rentop with status 129 and gives the terminal back" t_sighup
tap "SIGINT (kill -INT) ends rentop with status 130 and gives the terminal back" t_sigint
tap "C-z suspends to the shell (terminal released), fg redraws the whole screen" t_suspend_resume
tap "C-c quits at once with status 0 and the terminal back" t_ctrl_c
e2e_done
