#!/bin/sh
# test_replace.sh: the failure rule in three keys: O on a failed instance
# opens the offers view on offers like it (same GPU model and count, not
# its machine) and c prefills the create form from it (image, disk, label,
# env, runtype); once the replacement runs (not before) the destroy of the
# old one is offered, starting on Cancel.  Also the template picker of the
# form and the :templates list (search, detail).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/create_lib.sh"

sim_start --seed 1 --quiet --rate-limits off --speed 20 --fail-rate 0 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x45 || { echo "not ok - rentop starts"; exit 1; }

# O on an image the registry refused (issue 21): fixing the image is
# offered rather than the same image elsewhere.  An empty search for offers
# like a crashed instance (no other 2x V100 as reliable) says what to relax.
t_replace_pull() {
    wait_for "Instances" 30 || return 1
    old=$(sim_state "[x['id'] for x in insts if 'pull access denied' in (x.get('status_msg') or '')][0]")
    keys / ; type_text "$old"; keys Enter
    wait_for "$old" 10 || return 1
    keys O
    wait_for "Replace: its image failed" 10 || return 1
    wait_for_flat "could not pull its image $(inst_field "$old" image_uuid): Error response from daemon: pull access denied" 5 || return 1
    wait_for_flat "The same image fails on any machine" 5 || return 1
    keys F
    wait_for "REPLACE $old, FIX ITS IMAGE" 10 || return 1
    wait_for_re "[0-9]+ offers" 40 || return 1
    keys Escape
    wait_gone "REPLACE $old" 10 || return 1
    keys 1; sleep 0.3; keys Escape; sleep 0.3
    crashed=$(sim_state "[x['id'] for x in insts if x.get('actual_status') == 'exited' and x.get('intended_status') == 'running' and x.get('gpu_name') == 'Tesla V100'][0]")
    keys / ; type_text "$crashed"; keys Enter
    wait_for "$crashed" 10 || return 1
    keys O
    wait_for "REPLACE $crashed (c rents" 10 || return 1
    wait_for_re "no offer is like it: relax reliability>=0\\.[0-9]+ \\(the old machine's\\), then gpu_ram>=" 60 || return 1
    keys Escape
    wait_gone "REPLACE $crashed" 10 || return 1
    keys 1; sleep 0.3; keys Escape; sleep 0.3
}

# Recycle is the third answer of O's question on a failed pull (issue 23):
# its confirmation starts on Cancel (nothing sent), then one PUT.
t_replace_recycle() {
    wait_for "Instances" 30 || return 1
    old=$(sim_state "[x['id'] for x in insts if x.get('actual_status') == 'running'][-1]")
    sim_post /__sim/instance "{\"id\":$old,\"actual_status\":\"created\",\"status_msg\":\"Error response from daemon: pull access denied for private/trainer, repository does not exist or may require 'docker login'\"}" || return 1
    keys r
    rpath=/api/v0/instances/recycle/$old/
    keys / ; type_text "$old"; keys Enter
    wait_for_re "$old .*failed start" 30 || return 1
    keys O
    wait_for "Replace: its image failed" 10 || return 1
    wait_for_flat "Or Recycle: the container anew on its machine, the rental kept." 5 || return 1
    on_screen "[ Recycle ]" || { fail "no Recycle answer"; return 1; }
    keys R
    wait_for "Recycle instance $old" 10 || return 1
    keys Enter                       # Cancel
    wait_gone "Recycle instance" 10 || return 1
    sleep 0.5
    [ "$(sent PUT "$rpath")" = 0 ] || { fail "recycle sent after Cancel"; return 1; }
    keys O
    wait_for "Replace: its image failed" 10 || return 1
    keys R
    wait_for "Recycle instance $old" 10 || return 1
    keys Tab Enter
    wait_for "recycle of instance $old accepted" 15 || return 1
    sleep 1
    [ "$(sent PUT "$rpath")" = 1 ] || { fail "recycle sent $(sent PUT "$rpath") times"; return 1; }
    keys 1; sleep 0.3; keys Escape; sleep 0.3
}

t_replace() {
    wait_for "Instances" 30 || return 1
    old=$(sim_state "[x['id'] for x in insts if x.get('actual_status') == 'created'][0]")
    # a machine's failure (an image the registry refused is fixed, not moved:
    # t_replace_pull), with an image that pulls
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$old,\"field\":\"status_msg\",\"value\":\"Error response from daemon: failed to create task for container: OCI runtime create failed: nvidia-container-cli: device error: unknown device\"}" || return 1
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$old,\"field\":\"image_uuid\",\"value\":\"pytorch/pytorch:latest\"}" || return 1
    img=$(sim_state "inst($old)['image_uuid']")
    rt=$(sim_state "inst($old)['image_runtype']")
    note "replacing $old ($img, $rt)"
    keys / ; type_text "$old"; keys Enter
    wait_for "$old" 10 || return 1
    # rentop has read the changed record (the image was set last)
    keys r
    wait_for_re "$old .*pytorch/pytorc" 30 || return 1
    keys O
    wait_for "REPLACE $old" 10 || return 1
    wait_for_re "[0-9]+ offers" 40 || return 1
    on_screen "machine_id!=" || return 1
    on_screen "-o dph_total+" || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    on_screen "$img" || { fail "the image is not prefilled"; return 1; }
    before=$(creates)
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    sim_expect "len([x for x in insts if x['id'] > $old and x.get('image_uuid') == '$img'])" 1 20 || return 1
    new=$(sim_state "max(x['id'] for x in insts)")
    # the old one's destroy waits for the new one to run (issue 21)
    wait_for_flat "its destroy is offered once $new runs" 15 || return 1
    if [ "$(inst_field "$new" actual_status)" != running ]; then
        not_on_screen "Destroy the failed instance" || { fail "destroy offered before $new runs"; return 1; }
    fi
    sim_expect "inst($new)['actual_status']" running 90 || return 1
    wait_for "Destroy the failed instance" 30 || return 1
    screen_flat | grep -q "replace instance $old" || { fail "the dialog does not name $old"; return 1; }
    [ "$(creates)" = $((before + 1)) ] || { fail "creates $(creates)"; return 1; }
    [ "$(sim_state "inst($new)['image_uuid']")" = "$img" ] || { fail "new image $(sim_state "inst($new)['image_uuid']")"; return 1; }
    [ "$(sim_state "inst($new)['image_runtype']")" = "$rt" ] || { fail "new runtype $(sim_state "inst($new)['image_runtype']")"; return 1; }
    [ "$(sim_state "inst($new)['disk_space'] == inst($old)['disk_space']")" = true ] || { fail "disk differs"; return 1; }
    [ "$(sim_state "inst($new)['machine_id'] != inst($old)['machine_id']")" = true ] || { fail "same machine"; return 1; }
    [ "$(sim_state "inst($new)['gpu_name'] == inst($old)['gpu_name']")" = true ] || { fail "another GPU model"; return 1; }
    # the dialog starts on Cancel: Tab to Destroy
    keys Tab Enter
    sim_expect "inst($old) is None" true 20 || return 1
    # the new one is shown (the filter that hid it was cleared) and selected
    wait_for "$new" 20 || return 1
}

# api METHOD PATH [BODY]: the service's API as the CLI calls it (set-up only).
api() { curl -sS --max-time 30 -X "$1" -H "Authorization: Bearer $SIM_KEY" -H 'Content-Type: application/json' "$SIM_URL$2" ${3:+-d "$3"}; }
OCI='Error response from daemon: failed to create task for container: OCI runtime create failed: nvidia-container-cli: device error: unknown device'

# O carries the failed instance's volume link (issue 23): a network volume
# to an offer in its region (the create sends the same volume_info); a
# local volume stays on its machine, which the form and the confirmation
# say plainly (the replacement is never on the old machine).
t_replace_volume() {
    keys 1; sleep 0.3; keys Escape; sleep 0.3
    nvol=$(api GET "/api/v0/volumes/?owner=me&type=network_volume" | python3 -c "import json,sys; print([v['id'] for v in json.load(sys.stdin)['volumes'] if v.get('type') == 'network_volume'][0])")
    region=$(api GET "/api/v0/volumes/?owner=me&type=network_volume" | python3 -c "import json,sys; print([v['geolocation'] for v in json.load(sys.stdin)['volumes'] if v.get('type') == 'network_volume'][0])")
    # an instance on the least reliable offer of the region's most offered
    # GPU kind, linked to that network volume at /shared
    oid=$(api POST /api/v0/bundles/ '{"limit":2000,"rentable":{"eq":true}}' | python3 -c "
import json, sys, collections
o = [x for x in json.load(sys.stdin)['offers'] if x.get('geolocation') == '$region' and not x.get('is_bid')]
m = collections.defaultdict(set)
for x in o: m[(x['gpu_name'], x['num_gpus'])].add(x['machine_id'])
k = max(m, key=lambda k: len(m[k]))
print(min((x for x in o if (x['gpu_name'], x['num_gpus']) == k), key=lambda x: x['reliability'])['id'])")
    note "network volume $nvol in $region; instance on offer $oid"
    made=$(api PUT "/api/v0/asks/$oid/" "{\"image\":\"pytorch/pytorch:latest\",\"disk\":20,\"runtype\":\"ssh\",\"label\":\"e2e-vol\",\"volume_info\":{\"volume_id\":$nvol,\"mount_path\":\"/shared\",\"create_new\":false}}")
    vid=$(echo "$made" | python3 -c "import json,sys; print(json.load(sys.stdin)['new_contract'])") || { fail "create: $made"; return 1; }
    sim_expect "inst($vid)['actual_status']" running 90 || return 1
    sim_post /__sim/instance "{\"id\":$vid,\"actual_status\":\"created\",\"status_msg\":\"$OCI\"}" || return 1
    keys / ; keys C-u; keys Enter; sleep 0.3
    keys r
    wait_for_re "$vid .*failed start" 30 || return 1
    select_row "$vid" || return 1
    wait_for_re "$vid .*failed start" 10 || return 1
    keys O
    wait_for "REPLACE $vid (c rents" 10 || return 1
    wait_for_re "[0-9]+ offers" 40 || return 1
    keys / ; type_text "$region"; keys Enter
    sleep 0.5
    keys c
    wait_for "Rent offer" 10 || return 1
    wait_for_flat "Network volume $nvol (shared_datasets at /shared) is linked to the new instance." 10 || return 1
    before=$(creates)
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    wait_for_flat "is linked to the new instance." 5 || return 1
    keys Tab Enter
    sim_expect "len([x for x in insts if x['id'] > $vid and x.get('label') == 'e2e-vol'])" 1 30 || return 1
    new=$(sim_state "max(x['id'] for x in insts if x.get('label') == 'e2e-vol')")
    [ "$(creates)" = $((before + 1)) ] || { fail "creates $(creates)"; return 1; }
    [ "$(sim_state "[v['id'] for v in (inst($new).get('volume_info') or [])]")" = "[$nvol]" ] ||
        { fail "the new instance's volumes: $(sim_state "inst($new).get('volume_info')")"; return 1; }
    [ "$(sim_state "[v['mount_path'] for v in (inst($new).get('volume_info') or [])]")" = '["/shared"]' ] || { fail "mount path"; return 1; }
    # leave the destroy question unanswered: Cancel
    wait_for "Destroy the failed instance" 60 && keys Enter
    sleep 0.5
    # a local volume: not carried, said in the form and the confirmation
    keys 1; sleep 0.3; keys Escape; sleep 0.3
    lid=$(sim_state "[x['id'] for x in insts if any(v.get('type') == 'local_volume' for v in (x.get('volume_info') or []))][0]")
    lvol=$(sim_state "[v['id'] for v in inst($lid)['volume_info']][0]")
    lmach=$(inst_field "$lid" machine_id)
    sim_post /__sim/instance "{\"id\":$lid,\"actual_status\":\"created\",\"status_msg\":\"$OCI\"}" || return 1
    keys / ; keys C-u; keys Enter; sleep 0.3
    keys r
    wait_for_re "$lid .*failed start" 30 || return 1
    select_row "$lid" || return 1
    keys O
    wait_for "REPLACE $lid (c rents" 10 || return 1
    wait_for_re "[0-9]+ offers" 40 || return 1
    keys / ; keys C-u; keys Enter      # the region filter of the first part off
    sleep 0.5
    keys c
    wait_for "Rent offer" 10 || return 1
    wait_for_flat "Local volume $lvol (data_main at /data) stays on machine $lmach" 10 || return 1
    before=$(creates)
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    wait_for_flat "stays on machine $lmach: the new instance" 5 || return 1
    keys Escape
    sleep 0.5
    [ "$(creates)" = "$before" ] || { fail "sent after Esc"; return 1; }
    keys Escape; sleep 0.3
    has "Discard" && keys Tab Enter
    sleep 0.3
    keys Escape; keys 1; sleep 0.3; keys Escape; sleep 0.3
}

t_template_picker() {
    keys 3
    wait_for "Offers:" 10 || return 1
    to_type on-demand || return 1
    fresh || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    keys Tab Enter
    wait_for "Pick a template" 10 || return 1
    # a row of the list (the title says "own and recommended" at once)
    wait_for_re "GB +recommended" 20 || return 1
    tname=$(sim_state "[t['name'] for t in d['templates'] if t.get('recommended')][0]")
    hash=$(sim_state "[t['hash_id'] for t in d['templates'] if t.get('recommended')][0]")
    type_text "$(echo "$tname" | cut -c1-6)"
    keys Enter
    wait_for "$hash" 10 || return 1
    keys Tab Tab; type_text "e2e-tpl"
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    wait_for "e2e-tpl" 30 || return 1
    sim_expect "[x.get('template_hash_id') for x in insts if x.get('label') == 'e2e-tpl']" "[\"$hash\"]" || return 1
}
t_templates_view() {
    keys Escape
    keys : ; type_text "templates"; keys Enter
    wait_for "Templates:" 10 || return 1
    wait_for "recommended" 20 || return 1
    tname=$(sim_state "[t['name'] for t in d['templates'] if t.get('recommended')][0]")
    # s searches the service with a query; / narrows the rows shown
    keys s ; type_text "recommended=true"; keys Enter
    wait_for "for query: recommended=true" 10 || return 1
    keys / ; type_text "$(echo "$tname" | cut -c1-6)"; keys Enter
    wait_for "filter: $(echo "$tname" | cut -c1-6)" 10 || return 1
    # the row itself (the header says the query and the filter before the answer lands)
    wait_for_re "GB +recommended" 20 || return 1
    keys Enter
    wait_for "hash_id:" 10 || return 1
    on_screen "launch mode:" || return 1
    keys q
}

tap "O on an image that failed to pull: fixing it offered; an empty search says what to relax" t_replace_pull
tap "O, c, create, destroy the failed one" t_replace
tap "O on a failed pull offers Recycle: its confirmation, then one recycle sent" t_replace_recycle
tap "O carries a network volume's link in its region; a local volume left behind is said" t_replace_volume
tap "template picker fills the form" t_template_picker
tap ":templates lists, searches, shows a template" t_templates_view
# from the first view (q closes the others first)
t_quit() { keys 1; sleep 0.5; rentop_quit; }
tap "q quits with status 0 and no sanitizer report" t_quit
e2e_done
