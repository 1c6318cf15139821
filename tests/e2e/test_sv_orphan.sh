#!/bin/sh
# test_sv_orphan.sh: deleting an endpoint in the serverless view deletes its
# workergroup with it (the service does: the simulator answers
# deleted_workers), and nothing of it is drawn under the next endpoint; a
# workergroup whose endpoint is gone (made with /__sim/set) is shown apart,
# in an "orphaned workergroups" group after every endpoint, marked
# ORPHANED; there `s` and `a` say why they cannot act, `e` and `d` act on
# the workergroup itself and say it is orphaned, and the delete goes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 200x40 || { echo "not ok - rentop starts"; exit 1; }

t_delete_endpoint() {
    wait_for "Instances" 30 || return 1
    keys 4
    wait_for "Serverless: 3 endpoints" 20 || return 1
    e=$(ep_id sdxl-gen)
    g=$(wg_of "$e")
    select_endpoint sdxl-gen
    keys d
    wait_for_flat "Delete endpoint sdxl-gen ($e)?" 10 || return 1
    wait_for_flat "workergroup ($g) is deleted with it" 5 || return 1
    keys Tab Enter
    wait_for "endpoint $e deleted" 20 || return 1
    sim_expect "[w['id'] for w in d['workergroups'] if w['id'] == $g]" "[]" 10 || return 1
    wait_for "Serverless: 2 endpoints, 2 workergroups" 20 || return 1
    # whisper-asr (the last endpoint) keeps only its own workergroup
    w=$(ep_id whisper-asr)
    wg_w=$(wg_of "$w")
    screen | grep -qE "wg $g\\b" && { fail "the deleted endpoint's workergroup is still drawn"; return 1; }
    screen | grep -qF "wg $wg_w" || { fail "whisper-asr's workergroup is not drawn"; return 1; }
    not_on_screen "orphaned" || return 1
}

t_orphan_apart() {
    l=$(ep_id llm-chat)
    o=$(wg_of "$l")
    sim_post /__sim/set "{\"what\":\"workergroup\",\"id\":$o,\"field\":\"endpoint_id\",\"value\":$e}"
    keys r
    wait_for "orphaned workergroups (1)" 30 || return 1
    wait_for "wg $o  ORPHANED (endpoint $e gone)" 10 || return 1
    # after every endpoint and its workergroups: below whisper-asr's group,
    # under the orphans' own row
    s=$(screen)
    row_w=$(echo "$s" | grep -nF "whisper-asr (" | cut -d: -f1)
    row_h=$(echo "$s" | grep -nF "orphaned workergroups (1)" | cut -d: -f1)
    row_o=$(echo "$s" | grep -nF "wg $o  ORPHANED" | cut -d: -f1)
    row_ww=$(echo "$s" | grep -nF "wg $wg_w " | cut -d: -f1)
    [ "$row_w" -lt "$row_ww" ] && [ "$row_ww" -lt "$row_h" ] && [ "$row_h" -lt "$row_o" ] ||
        { fail "rows out of place: endpoint $row_w, its wg $row_ww, orphans $row_h, orphan $row_o"; return 1; }
}

t_orphan_actions() {
    keys G        # the orphan, the last row
    keys s
    wait_for "workergroup $o is orphaned: its endpoint $e is gone; select an endpoint to suspend" 10 || return 1
    keys a
    wait_for "select an endpoint to add a workergroup to" 10 || return 1
    keys e
    wait_for "Orphaned workergroup $o: its endpoint $e is gone" 10 || return 1
    keys Escape
    wait_gone "Orphaned workergroup $o:" 10 || return 1
    keys d
    wait_for_flat "Delete orphaned workergroup $o? Its endpoint" 10 || return 1
    keys Tab Enter
    wait_for "workergroup $o deleted" 20 || return 1
    sim_expect "[w['id'] for w in d['workergroups'] if w['id'] == $o]" "[]" 10 || return 1
    wait_gone "orphaned workergroups" 20 || return 1
    # whisper-asr was never touched
    [ "$(ep_field whisper-asr id)" = "$w" ] || { fail "whisper-asr is gone"; return 1; }
    [ "$(wg_of "$w")" = "$wg_w" ] || { fail "whisper-asr's workergroup is gone"; return 1; }
    keys 1
}

tap "d on an endpoint deletes its workergroup too; none is drawn under the next endpoint" t_delete_endpoint
tap "a workergroup whose endpoint is gone is shown apart, after every endpoint, marked ORPHANED" t_orphan_apart
tap "on the orphan: s and a say why not, e and d act on it and say it is orphaned" t_orphan_actions
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
