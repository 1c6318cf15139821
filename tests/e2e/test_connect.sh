#!/bin/sh
# test_connect.sh: an instance's services (issue 23, "Connect"): the ports
# list (P, :ports ID) shows every mapped port as IP:port -> container port
# with its URL and the Jupyter URL with its token masked until v; y copies
# a URL (OSC 52, the token in the clipboard only); o opens it in $BROWSER
# (a stand-in recording its argv: the Jupyter token never in argv, it is
# copied instead), and over SSH (SSH_CONNECTION) o copies instead of
# running the browser; the detail view's port lines; ssh with -L forwards
# (ssh_forwards in the config on x and y, the chosen port on x in the
# ports list; a stand-in ssh records its argv); :scp ID, :rsync ID, Y;
# :exec ID CMD (ls's output in the pager, rm confirmed starting on Cancel,
# a refused command never sent, a lost answer not sent again, refused
# under --read-only); :recycle ID (confirmed from Cancel, sent once, the
# instance recycling; refused on a stopped one; a lost answer not resent);
# :update-template ID (the template picker, the choice confirmed from
# Cancel, sent once with the template's hash).
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
{
    echo '#!/bin/sh'
    printf '%s\n' "echo \"args: \$*\" >>'$E2E_TMP/browser.out'"
} >"$E2E_TMP/fake-browser"
chmod 755 "$E2E_TMP/fake-browser"
{
    echo '#!/bin/sh'
    printf '%s\n' "echo \"args: \$*\" >'$E2E_TMP/ssh.out'"
} >"$E2E_TMP/fake-ssh"
chmod 755 "$E2E_TMP/fake-ssh"
mkdir -p "$E2E_HOME/.config/rentop"
printf 'ssh_command = %s\nssh_forwards = 8888, 8080\n' "$E2E_TMP/fake-ssh" >"$E2E_HOME/.config/rentop/config"
export BROWSER="$E2E_TMP/fake-browser"
unset SSH_CONNECTION

# A running Jupyter instance with another HTTP port (the seeded ComfyUI's 8188).
ID=$(first_inst "x.get('actual_status') == 'running' and 'jupyter' in (x.get('image_runtype') or '') and len([k for k in (x.get('ports') or {}) if k.endswith('/tcp') and k not in ('22/tcp', '8080/tcp')]) > 0")
[ "$ID" != None ] || skip_all "no running Jupyter instance with an HTTP port in the seed"
IP=$(inst_field "$ID" public_ipaddr)
TOKEN=$(inst_field "$ID" jupyter_token)
hostport() { sim_state "inst($ID)['ports']['$1'][0]['HostPort']"; }
P22=$(hostport 22/tcp)
P8080=$(hostport 8080/tcp)
HTTP_PORT=$(sim_state "sorted(int(k.split('/')[0]) for k in inst($ID)['ports'] if k.endswith('/tcp') and k not in ('22/tcp', '8080/tcp'))[0]")
PH=$(hostport "$HTTP_PORT/tcp")
note "instance $ID at $IP: 22 -> $P22, 8080 -> $P8080, $HTTP_PORT -> $PH"

clip() { sleep 0.5; tm show-buffer 2>/dev/null; tm delete-buffer 2>/dev/null; }

# choose TEXT: filter the ports list down to the row with TEXT
choose() { keys /; type_text "$1"; keys Enter; sleep 0.3; }

t_ports_list() {
    wait_for "$ID" 30 || return 1
    select_row "$ID" || return 1
    keys P
    wait_for "Ports of instance $ID" 10 || return 1
    wait_for "$IP:$P22 -> 22/tcp" 5 || return 1
    wait_for "$IP:$PH -> $HTTP_PORT/tcp" 5 || return 1
    wait_for "http://$IP:$PH/" 5 || return 1
    wait_for "https://$IP:$P8080/?token=********" 5 || return 1
    wait_for "scp: scp://root@$IP:$P22" 5 || return 1
    not_on_screen "$TOKEN" || return 1
    # v shows the token, v again hides it
    keys v
    wait_for "?token=$TOKEN" 5 || return 1
    keys v
    wait_gone "$TOKEN" 5 || return 1
}

t_copy_jupyter_url() {
    tm set -g set-clipboard on
    choose "8080/tcp"
    keys y
    wait_for "copied the URL with the terminal clipboard" 10 || return 1
    got=$(clip)
    [ "$got" = "https://$IP:$P8080/?token=$TOKEN" ] || { fail "clipboard: $got"; return 1; }
    not_on_screen "$TOKEN"
}

t_open_jupyter_keeps_the_token_out_of_argv() {
    rm -f "$E2E_TMP/browser.out"
    keys o
    wait_for "token is copied" 10 || return 1
    got=$(cat "$E2E_TMP/browser.out" 2>/dev/null)
    [ "$got" = "args: https://$IP:$P8080/" ] || { fail "browser argv: $got"; return 1; }
    [ "$(clip)" = "$TOKEN" ] || { fail "the token is not in the clipboard"; return 1; }
    not_on_screen "$TOKEN"
}

t_open_http_port() {
    rm -f "$E2E_TMP/browser.out"
    keys Escape; sleep 0.2
    choose "$HTTP_PORT/tcp"
    keys o
    wait_for "opened http://$IP:$PH/" 10 || return 1
    got=$(cat "$E2E_TMP/browser.out" 2>/dev/null)
    [ "$got" = "args: http://$IP:$PH/" ] || { fail "browser argv: $got"; return 1; }
    # o on the SSH row says what to use instead, runs nothing
    rm -f "$E2E_TMP/browser.out"
    keys Escape; sleep 0.2
    choose "22/tcp"
    keys o
    wait_for "x connects" 10 || return 1
    [ ! -e "$E2E_TMP/browser.out" ] || { fail "the browser ran for the ssh port"; return 1; }
    keys q
    wait_gone "Ports of instance" 10
}

t_ports_command_and_detail() {
    cmd "ports 1"
    wait_for "takes the id of a listed instance" 10 || return 1
    cmd "ports $ID"
    wait_for "Ports of instance $ID" 10 || return 1
    keys q
    wait_gone "Ports of instance" 10 || return 1
    keys Enter
    wait_for "Instance $ID" 10 || return 1
    wait_for "$IP:$P22 -> 22/tcp  ssh" 5 || return 1
    wait_for "$IP:$P8080 -> 8080/tcp  https://$IP:$P8080/?token=********  (Jupyter)" 5 || return 1
    not_on_screen "$TOKEN" || return 1
    # P from the detail opens the list too
    keys P
    wait_for "Ports of instance $ID" 10 || return 1
    keys q   # back to the table (one overlay at a time)
    wait_gone "Ports of instance" 10
}

# ssh_answer: the route question ticks the forward; d takes the direct route
ssh_answer() {
    wait_for "[x] 8080" 10 || return 1
    keys d
}

t_ssh_forwards() {
    rm -f "$E2E_TMP/ssh.out"
    keys x
    ssh_answer || return 1
    wait_for "back from ssh" 15 || return 1
    got=$(cat "$E2E_TMP/ssh.out" 2>/dev/null)
    [ "$got" = "args: -p $P22 root@$IP -L 8080:localhost:8080" ] || { fail "ssh argv: $got"; return 1; }
    keys y
    ssh_answer || return 1
    wait_for "copied with the terminal clipboard" 10 || return 1
    got=$(clip)
    [ "$got" = "ssh -p $P22 root@$IP -L 8080:localhost:8080" ] || { fail "clipboard: $got"; return 1; }
    # x in the ports list: the chosen port instead
    rm -f "$E2E_TMP/ssh.out"
    keys P
    wait_for "Ports of instance $ID" 10 || return 1
    choose "$HTTP_PORT/tcp"
    keys x
    wait_for "[x] $HTTP_PORT" 10 || return 1
    wait_for "[ ] 8080" 5 || return 1
    keys d
    wait_for "back from ssh" 15 || return 1
    got=$(cat "$E2E_TMP/ssh.out" 2>/dev/null)
    [ "$got" = "args: -p $P22 root@$IP -L $HTTP_PORT:localhost:$HTTP_PORT" ] || { fail "ssh argv: $got"; return 1; }
    keys q
    wait_gone "Ports of instance" 10
}

# The route question's checklist: every HTTP port the instance maps, the
# ssh_forwards ones ticked; Space ticks, Up/Down move; d runs ssh with the
# ticked ones; y in x's question copies that same command.
t_route_checklist() {
    FWD=$(sim_state "' '.join(str(p) for p in sorted(int(k.split('/')[0]) for k in inst($ID)['ports'] if k.endswith('/tcp') and k != '22/tcp'))")
    i8080=$(echo $FWD | tr ' ' '\n' | grep -nx 8080 | cut -d: -f1)
    ihttp=$(echo $FWD | tr ' ' '\n' | grep -nx "$HTTP_PORT" | cut -d: -f1)
    note "forwardable: $FWD (8080 at $i8080, $HTTP_PORT at $ihttp)"
    # down_to N: the checklist's cursor (on the first box) onto box N
    down_to() { k=1; while [ $k -lt "$1" ]; do keys Down; k=$((k + 1)); done; }
    rm -f "$E2E_TMP/ssh.out"
    keys x
    wait_for "[x] 8080" 10 || return 1
    wait_for "[ ] $HTTP_PORT" 5 || return 1
    down_to "$ihttp"; keys Space
    wait_for "[x] $HTTP_PORT" 5 || return 1
    keys d
    wait_for "back from ssh" 15 || return 1
    lo=$(printf '%s\n%s\n' 8080 "$HTTP_PORT" | sort -n | head -1)
    hi=$(printf '%s\n%s\n' 8080 "$HTTP_PORT" | sort -n | tail -1)
    got=$(cat "$E2E_TMP/ssh.out" 2>/dev/null)
    [ "$got" = "args: -p $P22 root@$IP -L $lo:localhost:$lo -L $hi:localhost:$hi" ] || { fail "ssh argv: $got"; return 1; }
    # x's question again (the config's forwards ticked anew): 8080 off,
    # the other on, y copies the command instead of running it
    rm -f "$E2E_TMP/ssh.out"
    keys x
    wait_for "[x] 8080" 10 || return 1
    not_on_screen "[x] $HTTP_PORT" || return 1
    down_to "$i8080"; keys Space
    k=$i8080
    while [ $k -lt "$ihttp" ]; do keys Down; k=$((k + 1)); done
    while [ $k -gt "$ihttp" ]; do keys Up; k=$((k - 1)); done
    keys Space
    wait_for "[x] $HTTP_PORT" 5 || return 1
    wait_for "[ ] 8080" 5 || return 1
    keys y
    wait_for "copied with the terminal clipboard" 10 || return 1
    got=$(clip)
    [ "$got" = "ssh -p $P22 root@$IP -L $HTTP_PORT:localhost:$HTTP_PORT" ] || { fail "clipboard: $got"; return 1; }
    [ ! -e "$E2E_TMP/ssh.out" ] || { fail "y ran ssh"; return 1; }
}

t_scp_commands() {
    keys Y
    wait_for "scp://root@$IP:$P22; copied" 10 || return 1
    got=$(clip)
    [ "$got" = "scp -P $P22 -r root@$IP:/workspace/ ." ] || { fail "clipboard: $got"; return 1; }
    cmd "rsync $ID"
    wait_for "copied (OSC 52): rsync" 10 || return 1
    got=$(clip)
    [ "$got" = "rsync -avP -e 'ssh -p $P22' root@$IP:/workspace/ ./" ] || { fail "clipboard: $got"; return 1; }
    cmd "scp nope"
    wait_for ":scp takes an instance id" 10
}

EXEC_PATH=/api/v0/instances/command/$ID/

t_exec_ls() {
    cmd "exec $ID ls -l /workspace"
    wait_for "\"ls -l /workspace\" on instance $ID: " 15 || return 1
    wait_for "checkpoints" 5 || return 1
    wait_for "train.py" 5 || return 1
    [ "$(sent PUT "$EXEC_PATH")" = 1 ] || { fail "sent $(sent PUT "$EXEC_PATH") times"; return 1; }
    keys q
    # du names whole paths: the container's writeable_path prefix is taken out
    cmd "exec $ID du -d1 -h /workspace"
    wait_for "\"du -d1 -h /workspace\" on instance $ID: " 15 || return 1
    wait_for_re "[0-9.]+[KMG]? +/workspace/checkpoints\$" 5 || return 1
    not_on_screen "overlay2" || return 1
    keys q
    wait_gone "on instance $ID:" 10
}

t_exec_rm_confirmed() {
    n0=$(sent PUT "$EXEC_PATH")
    cmd "exec $ID rm -r /workspace/checkpoints"
    wait_for "Remove files" 10 || return 1
    keys Enter                       # the dialog starts on Cancel
    wait_gone "Remove files" 10 || return 1
    sleep 0.5
    [ "$(sent PUT "$EXEC_PATH")" = "$n0" ] || { fail "sent after Cancel"; return 1; }
    cmd "exec $ID rm -r /workspace/checkpoints"
    wait_for "Remove files" 10 || return 1
    keys Tab Enter
    wait_for "\"rm -r /workspace/checkpoints\" on instance $ID: 0 lines" 15 || return 1
    [ "$(sent PUT "$EXEC_PATH")" = $((n0 + 1)) ] || { fail "rm sent $(sent PUT "$EXEC_PATH") times"; return 1; }
    keys q
    cmd "exec $ID ls /workspace"
    wait_for "\"ls /workspace\" on instance $ID: " 15 || return 1
    wait_for "train.py" 5 || return 1
    not_on_screen "checkpoints" || return 1
    keys q
    wait_gone "on instance $ID:" 10
}

t_exec_refused_and_lost() {
    n0=$(sent PUT "$EXEC_PATH")
    cmd "exec $ID cat /etc/passwd"
    wait_for "the service runs only ls, du and rm" 10 || return 1
    cmd "exec $ID ls; rm -rf /"
    wait_for "shell syntax" 10 || return 1
    [ "$(sent PUT "$EXEC_PATH")" = "$n0" ] || { fail "a refused command was sent"; return 1; }
    # a lost answer: said, not sent again
    fault "$EXEC_PATH" PUT lost || return 1
    cmd "exec $ID du -s /workspace"
    wait_for "the answer was lost; it may have run" 30 || return 1
    sleep 2
    [ "$(sent PUT "$EXEC_PATH")" = $((n0 + 1)) ] || { fail "sent $(sent PUT "$EXEC_PATH") times after a lost answer"; return 1; }
    keys q
}

t_recycle() {
    rid=$(first_inst "x.get('actual_status') == 'running' and x['id'] != $ID")
    path=/api/v0/instances/recycle/$rid/
    cmd "recycle $rid"
    wait_for "Recycle instance $rid" 10 || return 1
    keys Enter                       # Cancel
    wait_gone "Recycle instance" 10 || return 1
    sleep 0.5
    [ "$(sent PUT "$path")" = 0 ] || { fail "sent after Cancel"; return 1; }
    cmd "recycle $rid"
    wait_for "Recycle instance $rid" 10 || return 1
    keys Tab Enter
    wait_for "recycle of instance $rid accepted" 15 || return 1
    [ "$(sent PUT "$path")" = 1 ] || { fail "sent $(sent PUT "$path") times"; return 1; }
    [ "$(inst_field "$rid" status_msg)" = recycling ] || { fail "status_msg $(inst_field "$rid" status_msg)"; return 1; }
    # a stopped instance: refused before anything is sent
    sid=$(first_inst "x.get('intended_status') == 'stopped' and x.get('actual_status') == 'exited'")
    cmd "recycle $sid"
    wait_for "S starts it first" 10 || return 1
    [ "$(sent PUT /api/v0/instances/recycle/$sid/)" = 0 ] || { fail "sent for a stopped instance"; return 1; }
    # a lost answer: said, not resent
    lid=$(first_inst "x.get('actual_status') == 'running' and x['id'] not in ($ID, $rid)")
    fault /api/v0/instances/recycle/$lid/ PUT lost || return 1
    cmd "recycle $lid"
    wait_for "Recycle instance $lid" 10 || return 1
    keys Tab Enter
    wait_for "the answer was lost; it may have" 30 || return 1
    sleep 2
    [ "$(sent PUT /api/v0/instances/recycle/$lid/)" = 1 ] || { fail "a lost recycle was resent"; return 1; }
}

t_update_template() {
    uid=$(first_inst "x.get('actual_status') == 'running' and x['id'] not in ($ID, $rid, $lid)")
    hash=$(sim_state "next(t['hash_id'] for t in d['templates'] if t['name'] == 'CUDA devel')")
    path=/api/v0/instances/update_template/$uid/
    cmd "update-template $uid"
    wait_for "Update the template of instance $uid" 10 || return 1
    wait_for "Pick a template" 10 || return 1
    type_text "CUDA devel"
    wait_for "nvidia/cuda:" 10 || return 1   # the list fetched
    keys Enter
    wait_for "─ Update template ─" 10 || return 1
    keys Enter                       # Cancel
    wait_gone "Update instance" 10 || return 1
    sleep 0.5
    [ "$(sent PUT "$path")" = 0 ] || { fail "sent after Cancel"; return 1; }
    cmd "update-template $uid"
    wait_for "Pick a template" 10 || return 1
    type_text "CUDA devel"
    wait_for "nvidia/cuda:" 10 || return 1   # the list fetched
    keys Enter
    wait_for "─ Update template ─" 10 || return 1
    keys Tab Enter
    wait_for "template update of instance $uid accepted" 15 || return 1
    [ "$(sent PUT "$path")" = 1 ] || { fail "sent $(sent PUT "$path") times"; return 1; }
    [ "$(inst_field "$uid" template_hash_id)" = "$hash" ] || { fail "template_hash_id $(inst_field "$uid" template_hash_id)"; return 1; }
}

t_over_ssh_o_copies() {
    keys q
    rentop_wait_exit 20 || return 1
    tm kill-server >/dev/null 2>&1
    sleep 0.3
    export SSH_CONNECTION="192.0.2.1 50000 192.0.2.2 22"
    rentop_start -s 120x32 || return 1
    tm set -g set-clipboard on
    wait_for "$ID" 30 || return 1
    select_row "$ID" || return 1
    keys P
    wait_for "Ports of instance $ID" 10 || return 1
    rm -f "$E2E_TMP/browser.out"
    choose "$HTTP_PORT/tcp"
    keys o
    wait_for "over SSH" 10 || return 1
    [ "$(clip)" = "http://$IP:$PH/" ] || { fail "not copied"; return 1; }
    [ ! -e "$E2E_TMP/browser.out" ] || { fail "the browser ran over SSH"; return 1; }
    unset SSH_CONNECTION
}

t_exec_read_only() {
    cmd q
    rentop_wait_exit 20 || return 1
    tm kill-server >/dev/null 2>&1
    sleep 0.3
    rentop_start -s 120x32 --read-only || return 1
    wait_for "$ID" 30 || return 1
    n0=$(sent PUT "$EXEC_PATH")
    cmd "exec $ID ls /"
    wait_for_re "read-only" 10 || return 1
    sleep 0.5
    [ "$(sent PUT "$EXEC_PATH")" = "$n0" ] || { fail "sent under --read-only"; return 1; }
    rid=$(first_inst "x.get('actual_status') == 'running' and x['id'] != $ID")
    r0=$(sent PUT /api/v0/instances/recycle/$rid/)
    cmd "recycle $rid"
    wait_for_re "read-only" 10 || return 1
    not_on_screen "Recycle instance" || return 1
    [ "$(sent PUT /api/v0/instances/recycle/$rid/)" = "$r0" ] || { fail "recycle sent under --read-only"; return 1; }
    cmd "update-template $rid"
    wait_for "refused: rentop runs --read-only" 10 || return 1
    not_on_screen "Pick a template" || return 1
    keys Escape
}

rentop_start -s 120x32 || { echo "not ok - rentop starts"; exit 1; }
tap "ports list: every port, URLs, the token masked until v" t_ports_list
tap "y copies the Jupyter URL with its token (clipboard only)" t_copy_jupyter_url
tap "o opens Jupyter without the token in argv, copies the token" t_open_jupyter_keeps_the_token_out_of_argv
tap "o opens an HTTP port's URL; not the ssh port" t_open_http_port
tap ":ports ID and the detail view's port lines" t_ports_command_and_detail
tap "ssh -L forwards: ssh_forwards on x and y, the chosen port in the ports list" t_ssh_forwards
tap "x's route question: a checklist of HTTP ports as -L forwards; y copies the same command" t_route_checklist
tap "Y and :rsync ID copy the scp and rsync commands" t_scp_commands
tap ":exec ID ls: the output in a pager, the path prefix stripped" t_exec_ls
tap ":exec ID rm: confirmed, starting on Cancel; the file is gone" t_exec_rm_confirmed
tap ":exec refuses other commands unsent; a lost answer is not resent" t_exec_refused_and_lost
tap ":recycle ID: confirmed from Cancel, sent once; refused when stopped; lost not resent" t_recycle
tap ":update-template ID: picked, confirmed from Cancel, sent once" t_update_template
tap "over SSH o copies instead of opening" t_over_ssh_o_copies
tap ":exec, :recycle and :update-template are refused under --read-only" t_exec_read_only
e2e_done
