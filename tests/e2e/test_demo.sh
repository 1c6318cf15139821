#!/bin/sh
# test_demo.sh: `make demo`'s script.  Without a terminal it shows the seeded
# account through `rentop --dump instances` and exits 0; in a terminal it runs
# the dashboard against its simulator, and when rentop ends (C-c here) the
# simulator is gone and the temp files with it.  The key is never on argv.
. "$(dirname "$0")/lib.sh"

DEMO="$SRCDIR/mk/demo.sh"

t_no_terminal() {
    sh "$DEMO" "$BUILD_DIR" </dev/null >"$E2E_TMP/demo.out" 2>&1
    rc=$?
    sed 's/^/#  > /' "$E2E_TMP/demo.out" | head -n 8
    [ "$rc" = 0 ] || { fail "demo exited with status $rc"; return 1; }
    grep -q "running" "$E2E_TMP/demo.out" || { fail "no instance listed"; return 1; }
    url=$(sed -n 's/^rentop demo: a simulated account (seed 1) at \(http[^ ]*\).*/\1/p' "$E2E_TMP/demo.out")
    [ -n "$url" ] || { fail "no URL printed"; return 1; }
    ! curl -s --max-time 3 "$url/__sim/state" >/dev/null 2>&1 || { fail "the simulator at $url still answers"; return 1; }
}

t_terminal() {
    printf 'set -g status off\nset -g remain-on-exit on\n' >"$E2E_TMP/tmux.conf"
    e2e_home
    {
        echo '#!/bin/sh'
        echo "cd '$SRCDIR'"
        echo "export HOME='$E2E_HOME' TERM=xterm-256color LANG=C.UTF-8"
        echo "unset VAST_API_KEY VAST_URL TMUX"
        echo "sh '$DEMO' '$BUILD_DIR'"
        echo "echo \"[demo exited with status \$?]\""
        echo "PS1='e2e-shell\$ ' exec sh -i"
    } >"$E2E_TMP/demo-launch.sh"
    chmod 700 "$E2E_TMP/demo-launch.sh"
    tm_new_session 120x30 "$E2E_TMP/demo-launch.sh" || return 1
    wait_for_re "[0-9]+ running [0-9]+ booting [0-9]+ stopped [0-9]+ failed" 30 || return 1  # the header (120 columns: the address goes first)
    wait_for "running" 10 || return 1
    # no process of the demo (its sh, rentop-sim, rentop) has a key on its
    # command line (the simulator's keys are 64 hex digits)
    pane=$(tm display -p -t "$E2E_SESSION" '#{pane_pid}')
    demo=$(pgrep -P "$pane")
    [ -n "$demo" ] || { fail "no demo process"; return 1; }
    n=0
    for p in $demo $(pgrep -P "$demo"); do
        n=$((n + 1))
        tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qE '[0-9a-f]{64}' &&
            { fail "a key on a command line: $(tr '\0' ' ' <"/proc/$p/cmdline")"; return 1; }
    done
    [ "$n" -ge 3 ] || { fail "expected the demo, its simulator and rentop, found $n processes"; return 1; }
    keys C-c
    wait_for "simulator stopped" 20 || return 1
    wait_for "[demo exited with status 0]" 10 || return 1
    url=$(screen | sed -n 's/.*at \(http:[^ ]*\).*/\1/p' | head -n 1)
    note "demo URL: $url"
    [ -n "$url" ] || { fail "no URL on screen"; return 1; }
    ! curl -s --max-time 3 "$url/__sim/state" >/dev/null 2>&1 || { fail "the simulator at $url still answers"; return 1; }
    term_restored
}

tap "demo without a terminal lists the seeded instances and stops its simulator" t_no_terminal
tap "demo in a terminal runs the dashboard; on C-c the simulator is stopped and the terminal restored" t_terminal
e2e_done
