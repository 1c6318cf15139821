#!/bin/sh
# test_process_terminal.sh: what rentop leaves to the processes and the
# terminal around it: the file descriptors an ssh child inherits (0-2
# only), the terminal's keypad mode given back after a fatal signal (status
# 131, no core file), ASCII drawing under LANG=C.  The refusals on a
# terminal that cannot address the cursor or without one: integ
# test_tty.sh; the detail view's env mask and the key-file warning:
# test_secret_guards.sh.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
ID=$(first_inst "x.get('actual_status') == 'running'")

# ssh runs with only 0-2 open: no curl socket, no wake-up descriptor, no
# config or log file leaks into the child.  The stand-in execs sleep, whose
# descriptors the test reads from /proc while it runs.
t_ssh_fds() {
    tm kill-server >/dev/null 2>&1
    e2e_home
    mkdir -p "$E2E_HOME/.config/rentop"
    printf '#!/bin/sh\nexec sleep 60\n' >"$E2E_TMP/ssh-standin"
    chmod 755 "$E2E_TMP/ssh-standin"
    # ssh = direct: no route question (test_table.sh covers it)
    printf 'ssh_command = %s\nssh = direct\n' "$E2E_TMP/ssh-standin" >"$E2E_HOME/.config/rentop/config"
    rentop_start -s 120x40 --log "$E2E_TMP/debug.log" || return 1
    wait_for "$ID" 30 || return 1
    select_row "$ID" || return 1
    rpid=$(rentop_pid)
    [ -n "$rpid" ] || { fail "no rentop process"; return 1; }
    keys x
    wait_begin 10
    until child=$(pgrep -P "$rpid" sleep | head -n 1); [ -n "$child" ]; do
        wait_tick || { fail "the ssh stand-in did not start"; return 1; }
    done
    fds=$(ls "/proc/$child/fd" | sort -n | tr '\n' ' ')
    note "the ssh child's descriptors: $fds"
    kill "$child"
    [ "$fds" = "0 1 2 " ] || { fail "the ssh child inherited descriptors: $fds"; return 1; }
    # said in the event log too (a toast may be replaced by another event)
    keys 2
    wait_for "ended with status" 10 || return 1
    keys 1
    rm -f "$E2E_HOME/.config/rentop/config"
    rentop_quit
}

# relaunch SED: restart rentop's pane with its launcher edited by SED.
relaunch() {
    tm kill-server >/dev/null 2>&1
    rm -f "$E2E_TMP/rentop.rc" "$E2E_TMP/rentop.stderr"
    sed -i "$1" "$E2E_TMP/launch.sh"
    tm_new_session 120x40 "$E2E_TMP/launch.sh" || return 1
    E2E_WATCH=1
}

# SIGQUIT (a fatal signal): the handler restores the terminal, keypad
# transmit mode included (rmkx), then dies by the signal; no core file is
# written even with the core limit raised (not dumpable, RLIMIT_CORE 0).
t_fatal_signal() {
    tm kill-server >/dev/null 2>&1
    rentop_start -s 120x40 || return 1
    relaunch "s|^'$RENTOP'|ulimit -c unlimited 2>/dev/null; &|" || return 1
    wait_for "$ID" 30 || return 1
    kp=$(tm display -p -t "$E2E_SESSION" '#{keypad_cursor_flag}#{keypad_flag}')
    note "keypad flags while running: $kp"
    pid=$(rentop_pid)
    [ -n "$pid" ] || { fail "no rentop process"; return 1; }
    note "core limit of rentop: $(grep -i 'core file' "/proc/$pid/limits")"
    kill -QUIT "$pid"
    rentop_wait_exit 20 || return 1
    [ "$RENTOP_RC" = 131 ] || { fail "status $RENTOP_RC after SIGQUIT (want 131)"; return 1; }
    wait_for "e2e-shell" 10 || return 1
    kp=$(tm display -p -t "$E2E_SESSION" '#{keypad_cursor_flag}#{keypad_flag}')
    [ "$kp" = 00 ] || { fail "keypad transmit mode left on after SIGQUIT (flags $kp)"; return 1; }
    alt=$(tm display -p -t "$E2E_SESSION" '#{alternate_on}')
    [ "$alt" = 0 ] || { fail "still on the alternate screen"; return 1; }
    if ls "$E2E_TMP" | grep -q '^core'; then fail "a core file was written"; return 1; fi
    return 0
}

# LANG=C: ASCII drawing without being asked (no box characters, no arrows)
t_ascii_locale() {
    tm kill-server >/dev/null 2>&1
    rentop_start -s 120x40 || return 1
    relaunch "s|LANG=C.UTF-8 LC_ALL=C.UTF-8|LANG=C LC_ALL=C|" || return 1
    wait_for "$ID" 30 || return 1
    wait_for "ID^" 10 || return 1
    keys '?'
    wait_for "Help  (Esc" 10 || return 1
    s=$(screen)
    case $s in *[│─┌┐└┘▲▼∞⟳]*|*lqqq*) fail "non-ASCII drawing under LANG=C"; return 1 ;; esac
    keys Escape
    rentop_quit
}

tap "ssh (posix_spawnp) inherits descriptors 0-2 only" t_ssh_fds
tap "SIGQUIT: the terminal is restored with keypad transmit off, status 131, no core" t_fatal_signal
tap "LANG=C switches to ASCII drawing" t_ascii_locale
e2e_done
