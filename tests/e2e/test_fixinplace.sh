#!/bin/sh
# test_fixinplace.sh: fixing an instance in place (issue 23): :copy between
# two instances (confirmed from Cancel, sent once, then watched in the
# transfers list through the destination's status bar to its end; d cancels
# a running copy, confirmed from Cancel; a lost answer is not resent); :copy
# with a local side copies the rsync command over SSH and sends nothing;
# :snapshot ID (a form with the registry login, the password never on
# screen nor in a file; confirmed; sent once; its progress shown; closed
# while sent, its answer lands in the transfers list); K, the instance's
# SSH keys (attach from ~/.ssh, a duplicate unsent, detach confirmed from
# Cancel, a lost attach or detach judged by the re-read list, not resent);
# --read-only refuses every write.  The simulator's clock is manual: the
# copy's phases come when the test moves it.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off --clock manual || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_HOME/.ssh"
ssh-keygen -q -t ed25519 -N '' -C e2e-inst -f "$E2E_HOME/.ssh/id_inst" </dev/null || exit 1
FP=$(ssh-keygen -l -f "$E2E_HOME/.ssh/id_inst.pub" | awk '{print $2}')
ssh-keygen -q -t ed25519 -N '' -C e2e-lost -f "$E2E_HOME/.ssh/id_lost" </dev/null || exit 1
advance() { sim_post /__sim/clock "{\"advance\":$1}" >/dev/null; }
clip() { sleep 0.5; tm show-buffer 2>/dev/null; tm delete-buffer 2>/dev/null; }
COPY=/api/v0/commands/copy_direct/

A=$(first_inst "x.get('actual_status') == 'running' and '22/tcp' in (x.get('ports') or {})")
B=$(first_inst "x.get('actual_status') == 'running' and x['id'] != $A")
C=$(first_inst "x.get('actual_status') == 'running' and x['id'] not in ($A, $B)")
[ "$B" != None ] && [ "$C" != None ] || skip_all "fewer than three running instances in the seed"
note "copy from $A into $B (and $C)"

t_copy_confirmed_and_watched() {
    wait_for "$A" 30 || return 1
    cmd "copy $A:/workspace/data/ $B:/workspace/in/"
    wait_for "Copy $A:/workspace/data/ into instance" 10 || return 1
    keys Enter                       # Cancel
    wait_gone "Copy $A:/workspace/data/" 10 || return 1
    sleep 0.5
    [ "$(sent PUT $COPY)" = 0 ] || { fail "sent after Cancel"; return 1; }
    cmd "copy $A:/workspace/data/ $B:/workspace/in/"
    wait_for "Copy $A:/workspace/data/ into instance" 10 || return 1
    keys Tab Enter
    wait_for "Transfers: copies and snapshots" 10 || return 1
    wait_for "accepted" 15 || return 1
    [ "$(sent PUT $COPY)" = 1 ] || { fail "sent $(sent PUT $COPY) times"; return 1; }
    body=$(sim_state "json.dumps(d['requests']['$COPY']['last_body'], sort_keys=True)")
    [ "$body" = "{\"client_id\": \"me\", \"dst_id\": \"$B\", \"dst_path\": \"/workspace/in/\", \"src_id\": \"$A\", \"src_path\": \"/workspace/data/\"}" ] ||
        { fail "body: $body"; return 1; }
    advance 7
    wait_for "Remote copy in progress" 30 || return 1
    screen | grep -qE "^ *copy +running +$B +$A:/workspace/d" || { fail "not running: $(line_with "$A:/workspace/")"; return 1; }
    # at 120 columns the row keeps the status past its percentage, and the
    # chosen job's status shows whole under the list; at 80, the percentage
    msg=$(inst_field "$B" status_msg)
    tm resize-window -t "$E2E_SESSION" -x 120 -y 40 || return 1
    wait_for "$msg" 10 || return 1
    screen | grep -E "^ *copy +running +$B +$A:/.* Remote copy in progress: [0-9]+% \([^)]+ of [^)]+\)" >/dev/null ||
        { fail "the row's status is cut at 120 columns"; screen_dump; return 1; }
    tm resize-window -t "$E2E_SESSION" -x 80 -y 24 || return 1
    sleep 1
    screen | grep -E "^ *copy +running +$B +$A:.* Remote copy in progress: [0-9]+%" >/dev/null ||
        { fail "the row's percentage is cut at 80 columns"; screen_dump; return 1; }
    tm resize-window -t "$E2E_SESSION" -x 140 -y 36 || return 1
    advance 30
    wait_for "Remote copy finished" 30 || return 1
    screen | grep -qE "^ *copy +done +$B +$A:/workspace/d" || { fail "not done: $(line_with "$A:/workspace/")"; return 1; }
    [ "$(sent PUT $COPY)" = 1 ] || { fail "sent $(sent PUT $COPY) times in all"; return 1; }
}

t_copy_cancel() {
    cmd "copy $A:/workspace/ $C:/backup/"
    wait_for "Copy $A:/workspace/ into instance" 10 || return 1
    keys Tab Enter
    wait_for "$A:/workspace/ -> $C:/backup/" 10 || return 1
    advance 7
    wait_for "Remote copy in progress" 30 || return 1
    keys / ; type_text "$C:/backup"; keys Enter; sleep 0.3
    keys d
    wait_for "Stop every copy into instance $C" 10 || return 1
    keys Enter                       # Cancel
    wait_gone "Stop every copy" 10 || return 1
    sleep 0.5
    [ "$(sent DELETE $COPY)" = 0 ] || { fail "cancel sent after Cancel"; return 1; }
    keys d
    wait_for "Stop every copy into instance $C" 10 || return 1
    keys Tab Enter
    wait_for "are being stopped" 15 || return 1
    [ "$(sent DELETE $COPY)" = 1 ] || { fail "cancel sent $(sent DELETE $COPY) times"; return 1; }
    advance 2
    wait_for "Remote copy canceled" 30 || return 1
    line_with "$C:/backup/" | grep -q canceled || { fail "not canceled: $(line_with "$C:/backup/")"; return 1; }
    keys Escape
}

t_copy_lost_not_resent() {
    n0=$(sent PUT $COPY)
    fault $COPY PUT lost || return 1
    cmd "copy $A:/workspace/train.py $C:/workspace/"
    wait_for "Copy $A:/workspace/train.py into instance" 10 || return 1
    keys Tab Enter
    wait_for "the answer was lost" 30 || return 1
    sleep 2
    [ "$(sent PUT $COPY)" = $((n0 + 1)) ] || { fail "a lost copy was sent $(( $(sent PUT $COPY) - n0 )) times"; return 1; }
}

t_copy_local_is_rsync() {
    keys Escape; sleep 0.3
    tm set -g set-clipboard on
    n0=$(sent PUT $COPY)
    IP=$(inst_field "$A" public_ipaddr)
    P22=$(sim_state "inst($A)['ports']['22/tcp'][0]['HostPort']")
    cmd "copy $A:/workspace/out/ ./here"
    wait_for "copied (OSC 52): rsync" 10 || return 1
    got=$(clip)
    [ "$got" = "rsync -avP -e 'ssh -p $P22' root@$IP:/workspace/out/ ./here" ] || { fail "clipboard: $got"; return 1; }
    cmd "copy local:data $A:/workspace/up/"
    wait_for "copied (OSC 52): rsync" 10 || return 1
    got=$(clip)
    [ "$got" = "rsync -avP -e 'ssh -p $P22' data root@$IP:/workspace/up/" ] || { fail "clipboard: $got"; return 1; }
    [ "$(sent PUT $COPY)" = "$n0" ] || { fail "a local copy called copy_direct"; return 1; }
    [ "$(sent PUT /api/v0/commands/rsync/)" = 0 ] || { fail "a local copy called the service"; return 1; }
    # a cloud location is refused, nothing sent
    cmd "copy s3.101:/bucket $A:/workspace/"
    wait_for "cloud copy is the CLI's" 10 || return 1
}

PASS='Hunter2-registry-Pw'
t_snapshot() {
    SP=/api/v0/instances/take_snapshot/$A/
    cmd "snapshot $A"
    wait_for "Snapshot of instance $A" 10 || return 1
    keys Tab; type_text "me/saved:v1"
    keys Tab; type_text "me"
    keys Tab; type_text "$PASS"
    sleep 0.3
    not_on_screen "$PASS" || return 1
    keys C-s
    wait_for "Snapshot instance" 10 || return 1
    not_on_screen "$PASS" || return 1
    keys Enter                        # Cancel: back to the form, nothing sent
    wait_for "not sent" 10 || return 1
    [ "$(sent POST "$SP")" = 0 ] || { fail "sent after Cancel"; return 1; }
    keys C-s
    wait_for "Snapshot instance" 10 || return 1
    keys Tab Enter
    wait_for "accepted" 15 || return 1
    [ "$(sent POST "$SP")" = 1 ] || { fail "sent $(sent POST "$SP") times"; return 1; }
    body=$(sim_state "json.dumps({k: v for k, v in d['requests']['$SP']['last_body'].items() if k != 'docker_login_pass'}, sort_keys=True)")
    [ "$body" = "{\"container_registry\": \"docker.io\", \"docker_login_user\": \"me\", \"id\": $A, \"pause\": \"true\", \"personal_repo\": \"me/saved:v1\"}" ] ||
        { fail "body: $body"; return 1; }
    advance 5
    wait_for "Snapshot: committing the container" 30 || return 1
    line_with "docker.io/me/saved:v1" | grep -q running || { fail "not running: $(line_with docker.io/me)"; return 1; }
    advance 80
    wait_for "Snapshot: pushing to docker.io/me/saved:v1" 30 || return 1
    not_on_screen "$PASS" || return 1
    if grep -rqF -- "$PASS" "$E2E_HOME" "$E2E_TMP/rentop.stderr" 2>/dev/null; then
        fail "the registry password is in a file"; return 1
    fi
    keys Escape
}

t_snapshot_refused_keeps_form() {
    SP=/api/v0/instances/take_snapshot/$B/
    cmd "snapshot $B"
    wait_for "Snapshot of instance $B" 10 || return 1
    keys Tab; type_text "bad repo"
    keys Tab; type_text "me"
    keys Tab; type_text "$PASS"
    keys C-s
    wait_for "blank" 10 || return 1
    [ "$(sent POST "$SP")" = 0 ] || { fail "an invalid repository was sent"; return 1; }
    on_screen "bad repo" || return 1
    keys Escape
    wait_gone "Snapshot of instance" 10 || return 1
    # a lost answer: not resent, still watched
    fault "$SP" POST lost || return 1
    cmd "snapshot $B"
    wait_for "Snapshot of instance $B" 10 || return 1
    keys Tab; type_text "me/other"
    keys Tab; type_text "me"
    keys Tab; type_text "$PASS"
    keys C-s
    wait_for "Snapshot instance" 10 || return 1
    keys Tab Enter
    wait_for "the answer was lost" 30 || return 1
    sleep 2
    [ "$(sent POST "$SP")" = 1 ] || { fail "a lost snapshot was sent $(sent POST "$SP") times"; return 1; }
    keys Escape
}

# the id of the listed key with comment $1 (its row's first column)
key_id() { screen | grep -E "^ *[0-9]+ +ssh-[a-z0-9-]+ +$1 " | head -n 1 | awk '{print $1}'; }

t_snapshot_closed_while_sent() {
    SP=/api/v0/instances/take_snapshot/$C/
    fault "$SP" POST latency '"ms":3000' || return 1
    cmd "snapshot $C"
    wait_for "Snapshot of instance $C" 10 || return 1
    keys Tab; type_text "me/late"
    keys Tab; type_text "me"
    keys Tab; type_text "$PASS"
    keys C-s
    wait_for "Snapshot instance" 10 || return 1
    keys Tab Enter
    sleep 0.5
    keys Escape                        # the form closes while the answer is awaited
    wait_for "shows its answer" 5 || return 1
    wait_for_re "snapshot +sending .*docker.io/me/late" 5 || return 1
    wait_for_re "snapshot +(waiting|running) .*docker.io/me/late" 20 || return 1
    [ "$(sent POST "$SP")" = 1 ] || { fail "sent $(sent POST "$SP") times"; return 1; }
    not_on_screen "$PASS" || return 1
    keys Escape
}

t_inst_keys() {
    keys Escape; sleep 0.3
    KP=/api/v0/instances/$A/ssh/
    select_row "$A" || return 1
    keys K
    wait_for "SSH keys of instance $A" 10 || return 1
    wait_for "FINGERPRINT" 10 || return 1
    [ "$(sent GET "$KP")" -ge 1 ] || { fail "the list was not read"; return 1; }
    keys a
    wait_for "Attach an SSH key to instance $A" 10 || return 1
    wait_for "id_inst.pub" 5 || return 1
    keys C-s
    wait_for "attached to instance $A" 15 || return 1
    wait_for "e2e-inst" 10 || return 1
    wait_for "$FP" 5 || return 1
    [ "$(sent POST "$KP")" = 1 ] || { fail "attach sent $(sent POST "$KP") times"; return 1; }
    # the same key again: refused before sending
    keys a
    wait_for "Attach an SSH key" 10 || return 1
    keys C-s
    wait_for "is already on instance $A" 10 || return 1
    keys Escape
    wait_gone "Attach an SSH key" 5 || return 1
    [ "$(sent POST "$KP")" = 1 ] || { fail "a duplicate was sent"; return 1; }
    # detach: confirmed from Cancel, sent once, gone from the list
    keys /; type_text e2e-inst; keys Enter; sleep 0.3
    KID=$(key_id e2e-inst)
    keys d
    wait_for "Detach SSH key $KID" 10 || return 1
    keys Enter                         # Cancel
    wait_gone "Detach SSH key" 10 || return 1
    sleep 0.5
    [ "$(sent DELETE "$KP$KID/")" = 0 ] || { fail "detach sent after Cancel"; return 1; }
    keys d
    wait_for "Detach SSH key $KID" 10 || return 1
    keys Tab Enter
    wait_for "detached from instance $A" 15 || return 1
    [ "$(sent DELETE "$KP$KID/")" = 1 ] || { fail "detach sent $(sent DELETE "$KP$KID/") times"; return 1; }
    keys /; keys C-u; keys Enter; sleep 0.3
    wait_gone "e2e-inst" 10 || return 1
}

t_inst_keys_lost() {
    KP=/api/v0/instances/$A/ssh/
    n0=$(sent POST "$KP")
    fault "$KP" POST lost || return 1
    keys a
    wait_for "Attach an SSH key" 10 || return 1
    keys Right                         # id_lost.pub (after id_inst.pub)
    wait_for "id_lost.pub" 5 || return 1
    keys C-s
    # the answer lost: the form locked until the list read again says it happened
    wait_for_re "attached|lost" 15 || return 1
    wait_for "e2e-lost" 20 || return 1
    sleep 2
    [ "$(sent POST "$KP")" = $((n0 + 1)) ] || { fail "a lost attach was sent $(( $(sent POST "$KP") - n0 )) times"; return 1; }
    # the re-read found it: the form closed by itself, the verdict said
    wait_gone "Attach an SSH key" 10 || return 1
    said "is there: attached" 5 || { fail "the verdict was not said"; return 1; }
    # a lost detach: the dialog locked, the re-read list says it happened, not resent
    keys /; type_text e2e-lost; keys Enter; sleep 0.3
    LID=$(key_id e2e-lost)
    fault "$KP$LID/" DELETE lost || return 1
    keys d
    wait_for "Detach SSH key $LID" 10 || return 1
    keys Tab Enter
    wait_for_flat "SSH key $LID on instance $A is gone: detached" 20 || return 1
    sleep 2
    [ "$(sent DELETE "$KP$LID/")" = 1 ] || { fail "a lost detach was sent $(sent DELETE "$KP$LID/") times"; return 1; }
    keys /; keys C-u; keys Enter; sleep 0.3
    keys Escape                        # back to the instances
    wait_gone "SSH keys of instance" 10
}

t_read_only() {
    rentop_quit
    rentop_start -s 140x36 --read-only || return 1
    wait_for "$A" 30 || return 1
    n0=$(sent PUT $COPY)
    cmd "copy $A:/workspace/ $B:/x/"
    wait_for_re "read-only" 10 || return 1
    cmd "snapshot $A"
    wait_for_re "read-only" 10 || return 1
    sleep 0.5
    [ "$(sent PUT $COPY)" = "$n0" ] || { fail "copy sent under --read-only"; return 1; }
    [ "$(sent POST /api/v0/instances/take_snapshot/$A/)" = 1 ] || { fail "snapshot sent under --read-only"; return 1; }
    # the instance's keys are listed; attach and detach are refused
    select_row "$A" || return 1
    keys K
    wait_for "SSH keys of instance $A" 10 || return 1
    p0=$(sent POST /api/v0/instances/$A/ssh/)
    keys a
    wait_for_re "read-only" 10 || return 1
    not_on_screen "Attach an SSH key" || return 1
    [ "$(sent POST /api/v0/instances/$A/ssh/)" = "$p0" ] || { fail "attach sent under --read-only"; return 1; }
    keys Escape; sleep 0.3
    # the local side still prints its rsync command (no write)
    cmd "copy local:data $A:/workspace/up/"
    wait_for "copied (OSC 52): rsync" 10 || return 1
}

rentop_start -s 140x36 || { echo "not ok - rentop starts"; exit 1; }
tap ":copy between instances: confirmed from Cancel, sent once, watched to its end" t_copy_confirmed_and_watched
tap ":copy: d cancels a running copy, confirmed from Cancel" t_copy_cancel
tap ":copy: a lost answer is not resent" t_copy_lost_not_resent
tap ":copy with a local side copies the rsync command, sends nothing" t_copy_local_is_rsync
tap ":snapshot ID: form, password never shown, confirmed, sent once, progress" t_snapshot
tap ":snapshot: an invalid form is not sent; a lost answer is not resent" t_snapshot_refused_keeps_form
tap ":snapshot: the form closed while sent, its answer lands in the transfers list" t_snapshot_closed_while_sent
tap "K: the instance's SSH keys; attach from ~/.ssh, a duplicate unsent; detach confirmed from Cancel" t_inst_keys
tap "K: a lost attach or detach is not resent; the re-read list says it happened" t_inst_keys_lost
tap "--read-only refuses :copy, :snapshot and key attach" t_read_only
rentop_quit
e2e_done
