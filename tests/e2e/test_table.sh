#!/bin/sh
# test_table.sh: the instance table against the seeded simulator: it appears
# with every seeded instance and the account header, the detail view, the
# filter, sorting, help, resizing down to 40x10 and back, and a clean quit
# that gives the terminal back.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
# The config file where rentop looks by default: ssh runs a stand-in that
# records its arguments, the terminal mode it was given and whether the API
# key reached it through the environment (rentop gets it from VAST_API_KEY).
e2e_home
mkdir -p "$E2E_HOME/.config/rentop"
{
    echo '#!/bin/sh'
    # with ssh-fail present it fails the way ssh does: a line on stderr, 255
    printf '%s\n' "if [ -e '$E2E_TMP/ssh-fail' ]; then echo 'debug1: some noise' >&2; printf 'root@h: Permission denied (publickey).\\r\\n\\n' >&2; exit 255; fi"
    printf '%s\n' "{ echo \"args: \$*\"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?icanon'; echo \"key in env: \${VAST_API_KEY:+yes}\"; } >'$E2E_TMP/ssh.out' 2>&1"
} >"$E2E_TMP/fake-ssh"
chmod 755 "$E2E_TMP/fake-ssh"
printf 'ssh_command = %s\n' "$E2E_TMP/fake-ssh" >"$E2E_HOME/.config/rentop/config"
rentop_start -s 120x32 -k env || { echo "not ok - rentop starts"; exit 1; }
IDS=$(sim_state "' '.join(str(x['id']) for x in sorted(insts, key=lambda x: x['id']))")
EMAIL=$(sim_state "d['user']['email']")
FIRST=${IDS%% *}
LAST=${IDS##* }
note "instances: $IDS; email $EMAIL"
# the header's state counts: at 120 columns they stay, the e-mail address goes first
COUNTS_RE='[0-9]+ running [0-9]+ booting [0-9]+ stopped [0-9]+ failed'

# row_of ID: the screen line number where ID first appears as a word (0: absent).
row_of() { screen | grep -nw -- "$1" | head -n 1 | cut -d: -f1 | grep . || echo 0; }

t_table_appears() {
    wait_for "$FIRST" 30 || return 1
    for id in $IDS; do wait_for "$id" 10 || return 1; done
    wait_for_re "$COUNTS_RE" 10 || return 1
    not_on_screen "$EMAIL" || return 1
    # the header: credit, burn rate, runway, last refresh
    wait_for_re "credit \\\$[0-9]+\.[0-9]{2} +burn \\\$[0-9.]+/h +runway [0-9]" 10 || return 1
    wait_for_re "refreshed [0-9]{2}:[0-9]{2}" 10 || return 1
    no_secret_on_screen
}

t_detail() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ssh_host')")
    host=$(inst_field "$id" ssh_host)
    port=$(inst_field "$id" ssh_port)
    msg=$(inst_field "$id" status_msg)
    select_row "$id" || return 1
    keys Enter
    wait_for "Instance $id" 10 || return 1
    wait_for "status_msg" 5 || return 1
    wait_for "$msg" 5 || return 1
    wait_for "$host" 5 || return 1
    wait_for "$port" 5 || return 1
    wait_for "cost so far" 5 || return 1
    wait_for "all fields" 5 || return 1
    # the fields as received: whole names, dates as dates, sizes with units
    seen_date= seen_cores= seen_disk=
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        scr=$(screen)
        echo "$scr" | grep -Eq "start_date +20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} \((.* ago|in .*)\)" && seen_date=1
        echo "$scr" | grep -Eq "cpu_cores_effective +[0-9]" && seen_cores=1
        echo "$scr" | grep -Eq "disk_space +[0-9.]+ GB" && seen_disk=1
        [ -n "$seen_date" ] && [ -n "$seen_cores" ] && [ -n "$seen_disk" ] && break
        keys NPage
        sleep 0.3
    done
    [ -n "$seen_date" ] || { fail "start_date is not shown as a date"; screen >&2; return 1; }
    [ -n "$seen_cores" ] || { fail "cpu_cores_effective is not shown whole"; return 1; }
    [ -n "$seen_disk" ] || { fail "disk_space has no unit"; return 1; }
    keys g
    wait_for "status_msg" 5 || return 1
    keys Escape
    wait_gone "status_msg" 10 || return 1
    keys Escape
    wait_for "$LAST" 10
}

t_filter() {
    a=$(first_inst "x.get('label')")
    la=$(inst_field "$a" label)
    b=$(first_inst "x.get('label') and x.get('label') != '$la'")
    keys /
    type_text "$la"
    keys Enter
    wait_for "$a" 10 || return 1
    wait_gone "$b" 10 || return 1
    keys Escape
    wait_for "$b" 10 || return 1
}

# /status=failed keeps the rows the header counts as failed (crashed,
# failed start, offline, unknown: one definition), the tab says how many.
t_filter_failed() {
    n=$(screen | sed -n 's/.* \([0-9][0-9]*\) failed .*/\1/p' | head -n 1)
    [ -n "$n" ] && [ "$n" -gt 1 ] || { fail "the header counts no failed: $(screen | sed -n 2p)"; return 1; }
    keys / C-u
    type_text "status=failed"
    keys Enter
    wait_for_re "Instances $n/[0-9]+ " 10 || { fail "the header counts $n failed: $(screen | sed -n 1p)"; return 1; }
    for st in crashed "failed start" offline unknown; do on_screen "$st" || return 1; done
    keys Escape
    wait_gone "Instances $n/" 10 || return 1
    keys Home   # the selection back on the first row, as the tests after expect
}

t_sort() {
    keys :
    type_text "sort id"
    keys Enter
    # ascending: the smallest id above the largest
    wait_begin 10
    while :; do
        f=$(row_of "$FIRST") l=$(row_of "$LAST")
        [ "$f" -gt 0 ] && [ "$l" -gt "$f" ] && break
        wait_tick || { fail "sorted by id: $FIRST on row $f, $LAST on row $l"; return 1; }
    done
    keys i
    wait_begin 10
    while :; do
        f=$(row_of "$FIRST") l=$(row_of "$LAST")
        [ "$l" -gt 0 ] && [ "$f" -gt "$l" ] && break
        wait_tick || { fail "inverted: $FIRST on row $f, $LAST on row $l"; return 1; }
    done
    keys i
    # > and < move the sort to the next and previous column (marked with an arrow)
    wait_for_re "ID[▲▼^v] " 10 || return 1
    keys '>'
    wait_for_re "LABEL[▲▼^v]" 10 || return 1
    la=$(sim_state "sorted((x.get('label') or '') for x in insts)[-1]")
    keys i
    # descending by label: the largest label on the first row
    wait_for_re "LABEL[▲▼^v]" 10 || return 1
    # (the arrow was there before i: wait for the rows to turn over)
    wait_begin 10
    while :; do
        first_row=$(screen | sed -n '4p')
        case $first_row in *"$(printf '%.11s' "$la")"*) break ;; esac
        wait_tick || { fail "first row '$first_row' is not label $la"; return 1; }
    done
    keys i '<'
    wait_for_re "ID[▲▼^v] " 10
}

t_help() {
    keys '?'
    wait_for "Help  (Esc" 10 || return 1
    # it opens at the instance keys; the global keys are above
    screen | grep -A1 "Help  (Esc" | grep -qF "Instances view" || { fail "help did not open at the instance keys"; return 1; }
    keys g
    wait_for "show this help" 10 || return 1
    # every page of the help (its length grows with the views)
    all=$(screen); keys NPage; sleep 0.5; all="$all$(screen)"; keys NPage; sleep 0.5
    all="$all$(screen)"; keys NPage; sleep 0.5; all="$all$(screen)"
    echo "$all" | grep -qF "halts compute billing" || { fail "no stop line in the help"; return 1; }
    echo "$all" | grep -qF "stops all billing" || { fail "no destroy line in the help"; return 1; }
    keys Escape
    wait_gone "Help  (Esc" 10 || return 1
    wait_for "$FIRST" 10
}

t_resize() {
    tm resize-window -t "$E2E_SESSION" -x 40 -y 10 || return 1
    wait_for "$FIRST" 10 || return 1
    wait_for "credit" 5 || return 1
    rentop_alive || { fail "rentop died at 40x10"; return 1; }
    tm resize-window -t "$E2E_SESSION" -x 30 -y 8 || return 1
    wait_for "too small" 10 || return 1
    rentop_alive || { fail "rentop died at 30x8"; return 1; }
    tm resize-window -t "$E2E_SESSION" -x 120 -y 32 || return 1
    wait_for "$LAST" 10 || return 1
    wait_for_re "$COUNTS_RE" 10 || return 1
    not_on_screen "too small"
}

# 200 columns: more columns (location, reliability, uptime beside the
# machine), not only wider ones; back at 120 they go again.
t_wide() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('geolocation')")
    geo=$(inst_field "$id" geolocation)
    mach=$(inst_field "$id" machine_id)
    tm resize-window -t "$E2E_SESSION" -x 200 -y 50 || return 1
    wait_for_re "MACHINE +LOCATION +RELIAB +UPTIME" 10 || return 1
    wait_for "$geo" 10 || return 1
    line=$(screen | grep -w -- "$id" | head -n 1)
    case $line in *"$geo"*) ;; *) fail "row of $id lacks its location $geo: $line"; return 1 ;; esac
    case $line in *" $mach "*) ;; *) fail "row of $id lacks its machine $mach: $line"; return 1 ;; esac
    echo "$line" | grep -Eq "[0-9]+\.[0-9]%" || { fail "no reliability in: $line"; return 1; }
    tm resize-window -t "$E2E_SESSION" -x 120 -y 32 || return 1
    wait_gone "LOCATION" 10 || return 1
    wait_for "$LAST" 10
}

t_pause() {
    keys p
    wait_for "PAUSED" 10 || return 1
    keys p
    wait_gone "PAUSED" 10
}

t_copy_ssh() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ports')")
    select_row "$id" || return 1
    keys y
    # a direct address and the proxy: y asks which, like x
    wait_for "[ Proxy ]" 10 || return 1
    keys Enter
    wait_for_re "copied with the terminal clipboard sequence \(OSC 52\): ssh -p [0-9]+ root@" 10 || return 1
    keys Escape
}

t_ssh() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ports')")
    port=$(sim_state "inst($id)['ports']['22/tcp'][0]['HostPort']")
    ip=$(inst_field "$id" public_ipaddr)
    rm -f "$E2E_TMP/ssh.out"
    select_row "$id" || return 1
    keys x
    # both a direct address and the proxy: a choice, the direct one first
    wait_for_re "\\[ Direct \\] +\\[ Proxy \\]" 10 || return 1
    wait_for "$ip:$port" 5 || return 1
    wait_for "$(inst_field "$id" ssh_host):$(inst_field "$id" ssh_port)" 5 || return 1
    keys Enter
    wait_for "back from ssh to instance $id" 15 || return 1
    [ -s "$E2E_TMP/ssh.out" ] || { fail "the ssh command did not run"; return 1; }
    note "ssh stand-in saw: $(tr '\n' ' ' <"$E2E_TMP/ssh.out")"
    grep -q -- "-p $port root@$ip" "$E2E_TMP/ssh.out" || { fail "ssh got other arguments"; return 1; }
    # curses had given the terminal back (canonical mode) while ssh ran
    grep -qx "icanon" "$E2E_TMP/ssh.out" || { fail "ssh ran with the terminal still in curses mode"; return 1; }
    # the key rentop read from VAST_API_KEY is not handed on to ssh
    grep -qx "key in env: " "$E2E_TMP/ssh.out" || { fail "ssh inherited VAST_API_KEY"; return 1; }
    # and the screen is whole again
    keys Escape
    wait_for "$FIRST" 10 && wait_for_re "$COUNTS_RE" 5
}

# A failing ssh: its last stderr line is kept and shown after the screen
# returns, not only the exit status.
t_ssh_fail() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ports')")
    : >"$E2E_TMP/ssh-fail"
    select_row "$id" || return 1
    keys x
    wait_for "[ Proxy ]" 10 || return 1
    keys d
    wait_for "ended with status 255: root@h: Permission denied (publickey)." 15 || return 1
    rm -f "$E2E_TMP/ssh-fail"
    wait_for "$FIRST" 10 && wait_for_re "$COUNTS_RE" 5
}

# p in the choice: the proxy address; Esc: nothing runs; `:ssh proxy`
# skips the question.
t_ssh_proxy() {
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ports') and x.get('ssh_host')")
    host=$(inst_field "$id" ssh_host)
    port=$(inst_field "$id" ssh_port)
    rm -f "$E2E_TMP/ssh.out"
    keys Escape   # the last test's filter
    wait_for "$LAST" 10 || return 1
    select_row "$id" || return 1
    keys x
    wait_for "[ Proxy ]" 10 || return 1
    wait_for "$host:$port" 5 || return 1
    keys p
    wait_for "back from ssh to instance $id" 15 || return 1
    grep -q -- "-p $port root@$host" "$E2E_TMP/ssh.out" || { fail "ssh got $(cat "$E2E_TMP/ssh.out")"; return 1; }
    grep -qx "key in env: " "$E2E_TMP/ssh.out" || { fail "ssh inherited VAST_API_KEY"; return 1; }
    rm -f "$E2E_TMP/ssh.out"
    keys x
    wait_for "[ Proxy ]" 10 || return 1
    keys Escape
    wait_for "cancelled" 10 || return 1
    sleep 1
    [ ! -e "$E2E_TMP/ssh.out" ] || { fail "ssh ran after Esc"; return 1; }
    keys : ; type_text "ssh proxy"; keys Enter
    wait_for "back from ssh to instance $id" 15 || return 1
    grep -q -- "-p $port root@$host" "$E2E_TMP/ssh.out" || { fail ":ssh proxy ran $(cat "$E2E_TMP/ssh.out")"; return 1; }
    wait_for "$FIRST" 10
}

t_redraw() {
    keys C-l
    wait_for "$FIRST" 10 && wait_for_re "$COUNTS_RE" 5
}

t_quit_restores() {
    rentop_quit || return 1
    wait_for "[rentop exited with status 0]" 10 || return 1
    term_restored
}

tap "the seeded table appears with every instance and the account" t_table_appears
tap "Enter opens the detail view with every field, Escape closes it" t_detail
tap "/ filters the table, Escape clears the filter" t_filter
tap ":sort id orders the rows, i inverts, > and < change the column" t_sort
tap "? shows the help generated from the key bindings" t_help
tap "resize to 40x10 (table), 30x8 (too-small notice) and back redraws without a crash" t_resize
tap "at 200x50 the table shows more columns (machine, location, reliability, uptime)" t_wide
tap "p pauses updates (PAUSED marker) and p resumes" t_pause
tap "y copies the ssh command (toast shows it)" t_copy_ssh
tap "x leaves curses, runs ssh to the instance's address and comes back" t_ssh
tap "x with a failing ssh shows ssh's last stderr line after the screen returns" t_ssh_fail
tap "x asks direct or proxy: p takes the proxy, Esc cancels, :ssh proxy skips the question" t_ssh_proxy
tap "C-l redraws the screen" t_redraw
tap "/status=failed keeps the rows the header counts as failed" t_filter_failed
tap "q quits and gives the terminal back (shell, modes, cursor)" t_quit_restores

# `ssh = proxy` in the config: x goes through the proxy without a question.
t_ssh_config() {
    printf 'ssh = proxy\n' >>"$E2E_HOME/.config/rentop/config"
    tm kill-server >/dev/null 2>&1; sleep 0.3
    rentop_start -s 120x32 -k env || return 1
    id=$(first_inst "x.get('actual_status') == 'running' and x.get('ports') and x.get('ssh_host')")
    host=$(inst_field "$id" ssh_host)
    port=$(inst_field "$id" ssh_port)
    wait_for "$id" 30 || return 1
    rm -f "$E2E_TMP/ssh.out"
    select_row "$id" || return 1
    keys x
    wait_for "back from ssh to instance $id" 15 || return 1
    grep -q -- "-p $port root@$host" "$E2E_TMP/ssh.out" || { fail "ssh got $(cat "$E2E_TMP/ssh.out")"; return 1; }
    rentop_quit
}
tap "ssh = proxy in the config: x takes the proxy without asking" t_ssh_config
e2e_done
