#!/bin/sh
# test_volumes.sh: the volumes view (7, :volumes; issue 23) against the
# simulator's seeded volumes (data_main used by an instance, scratch free,
# shared_datasets a network one): the list with size, machine or region,
# state, cost per month and the instance using one; d starts on Cancel,
# names what is lost and sends nothing on Cancel; a delete while an
# instance uses the volume is refused with the service's words; a volume
# created on an offer (o, c), a clone (C) that shows cloning; i on scratch:
# the offers on its machine, whose create form starts with it linked (at
# /scratch; the billing confirmation counts its cost), the instance
# carries it; i on a volume offer: a new 15 GB volume made with the
# instance, its cost per month confirmed; a delete whose answer is lost is
# not sent again by a second Enter and the re-read's verdict is said;
# under --read-only c, C, d and i are refused and send nothing.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
chmod 600 "$E2E_TMP/auth.hdr"
# vols EXPR: EXPR (Python) over v, the volumes the service lists, in its order
vols() {
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" "$SIM_URL/api/v0/volumes/?owner=me&type=all_volume" |
        python3 -c "import json,sys; v=json.load(sys.stdin)['volumes']; print($1)"
}
# vol_sel LABEL: select the volume labelled LABEL (its place in the list)
vol_sel() {
    i=$(vols "[x['label'] for x in v].index('$1')") || { fail "no volume $1"; return 1; }
    keys g
    while [ "$i" -gt 0 ]; do keys j; i=$((i - 1)); done
    sleep 0.3
}
# deletes: DELETE requests on the volumes path
deletes() { sim_state "sum(v['methods'].get('DELETE', 0) for k, v in d['requests'].items() if k.startswith('/api/v0/volumes'))"; }

USED=$(vols "[x['id'] for x in v if x['label']=='data_main'][0]")
USED_BY=$(vols "[x['instances'][0] for x in v if x['label']=='data_main'][0]")
SID=$(vols "[x['id'] for x in v if x['label']=='scratch'][0]")
SM=$(vols "[x['machine_id'] for x in v if x['label']=='scratch'][0]")
rentop_start -s 160x45 || { echo "not ok - rentop starts"; exit 1; }

t_list() {
    wait_for "Instances" 30 || return 1
    keys 7
    wait_for "shared_datasets" 20 || return 1
    l=$(line_with data_main)
    case $l in *"50 GB"*"machine "*"ready"*'$7.50'*"$USED_BY"*) ;; *) fail "data_main row: $l"; return 1 ;; esac
    l=$(line_with shared_datasets)
    case $l in *"network"*"200 GB"*"Texas, US"*'$32.00'*) ;; *) fail "shared_datasets row: $l"; return 1 ;; esac
    on_screen "Volumes: 3" || return 1
    on_screen "o offers  c create  C clone  d delete" || return 1   # the hint bar, from the action table
}

t_delete_confirm_and_refused() {
    vol_sel data_main || return 1
    keys d
    wait_for "Delete volume $USED data_main" 10 || return 1
    said "lost for good" 5 || { fail "the dialog does not say what is lost"; return 1; }
    keys Enter                         # it starts on Cancel: nothing sent
    wait_gone "Delete volume" 10 || return 1
    [ "$(deletes)" = 0 ] || { fail "Cancel sent a delete"; return 1; }
    keys d
    wait_for "Delete volume" 10 || return 1
    keys Tab Enter
    said "destroy the instance first" 20 || { fail "the refusal was not said"; return 1; }
    on_screen "Delete volume" || return 1   # the dialog stays with the service's words
    keys Escape
    wait_gone "Delete volume" 10 || return 1
    [ "$(deletes)" = 1 ] || { fail "$(deletes) deletes sent"; return 1; }
    [ "$(vols "len(v)")" = 3 ] || return 1
}

t_create() {
    keys o
    wait_for_re "Volume offers: [1-9][0-9]* local, [1-9]" 20 || return 1
    keys c
    wait_for "New local volume on offer" 10 || return 1
    OID=$(screen_flat | sed -n 's/.*New local volume on offer \([0-9]*\).*/\1/p' | head -n 1)
    keys Tab; type_text "e2e_vol"
    keys C-s
    said "created on offer $OID" 20 || { fail "the create was not said"; return 1; }
    EID=$(vols "[x['id'] for x in v if x['label']=='e2e_vol'][0]")
    said "volume $EID created on offer $OID" 2 || { fail "the new volume's id was not said"; return 1; }
    keys o
    wait_for "e2e_vol" 20 || return 1
    [ "$(vols "[int(x['disk_space']) for x in v if x['label']=='e2e_vol']")" = "[15]" ] || { fail "e2e_vol not 15 GB"; return 1; }
    # creating, then ready: the view reads it again by itself meanwhile
    wait_for_re "e2e_vol +15 GB .* ready" 30
}

t_clone() {
    vol_sel scratch || return 1
    keys C
    wait_for "Clone volume $SID" 10 || return 1
    keys C-s
    said "volume $SID is being cloned into volume" 20 || { fail "the clone was not said"; return 1; }
    wait_for_re "scratch_clone +100 GB .* cloning" 20 || return 1
    [ "$(vols "len([x for x in v if x['label']=='scratch_clone'])")" = 1 ]
}

# post PATH JSON: a REST POST with the full key, its answer on stdout
post() {
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -H 'Content-Type: application/json' \
        -X POST --data-binary "$2" "$SIM_URL$1"
}

t_link_on_create() {
    vol_sel scratch || return 1
    keys i                                         # the offers on its machine
    wait_for_re "query: machine_id=$SM +1 offer" 30 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    l=$(line_with "Volume offer / volume id")
    case $l in *"$SID"*) ;; *) fail "the form does not start with volume $SID: $l"; return 1 ;; esac
    on_screen "< link my volume (id) >" || return 1
    type_text "vastai/base-image:latest"
    keys Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab   # to the mount path
    keys C-u; type_text "/scratch"
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    # (the dialog lies over the form: its lines are read apart from the labels beside)
    { said "Volume $SID mounted at" 5 && said '/scratch ($12.00/month): already billed.' 5; } ||
        { fail "the confirmation does not count the volume"; return 1; }
    keys Tab Enter
    sim_expect "len([x for x in insts if any(int(y.get('id', 0)) == $SID and y.get('mount_path') == '/scratch' for y in (x.get('volume_info') or []))])" 1 30 ||
        { fail "no instance carries volume $SID"; return 1; }
    NEW=$(vols "[x['instances'][0] for x in v if x['id']==$SID][0]") || return 1
    keys 7
    wait_for_re "scratch .* $NEW" 20
}

t_new_on_create() {
    # the first volume offer (in the view's order) whose machine has an offer the offers view shows
    q='{"verified":{"eq":true},"disk_space":{"gte":1},"order":[["score","desc"]],"allocated_storage":15,"limit":64,"external":{"eq":false}}'
    post /api/v0/volumes/search/ "$q" >"$E2E_TMP/voffers.json" || return 1
    idx=0 found=
    for m in $(python3 -c "import json; [print(int(o['machine_id'])) for o in json.load(open('$E2E_TMP/voffers.json'))['offers']]"); do
        n=$(post /api/v0/bundles/ "{\"machine_id\":{\"eq\":$m},\"rentable\":{\"eq\":true},\"rented\":{\"eq\":false},\"verified\":{\"eq\":true},\"external\":{\"eq\":false},\"limit\":1}" |
            python3 -c "import json,sys; print(len(json.load(sys.stdin)['offers']))")
        [ "$n" = 1 ] && { found=$m; break; }
        idx=$((idx + 1))
    done
    [ -n "$found" ] || { fail "no volume offer on a rentable machine"; return 1; }
    VO=$(python3 -c "import json; print(json.load(open('$E2E_TMP/voffers.json'))['offers'][$idx]['id'])")
    MONTH=$(python3 -c "import json; print('%.2f' % (json.load(open('$E2E_TMP/voffers.json'))['offers'][$idx]['storage_cost'] * 15))")
    keys 7; sleep 0.3
    keys o
    wait_for_re "Volume offers: [1-9]" 20 || return 1
    keys g; i=$idx; while [ "$i" -gt 0 ]; do keys j; i=$((i - 1)); done
    sleep 0.3
    keys i
    wait_for_re "query: machine_id=$found +1 offer" 30 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    on_screen "< new volume (offer id) >" || return 1
    line_with "Volume offer / volume id" | grep -q "$VO" || { fail "the form does not start with volume offer $VO"; return 1; }
    type_text "vastai/base-image:latest"
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    said "Plus a new 15 GB" 5 || { fail "the confirmation does not name the new volume"; return 1; }
    said "/data (\$$MONTH/month), billed until it is deleted." 5 || { fail "its cost per month (\$$MONTH) is not said"; return 1; }
    keys Tab Enter
    sim_expect "len([x for x in insts if any(y.get('mount_path') == '/data' and int(y.get('total_space', 0)) == 15 for y in (x.get('volume_info') or []))])" 1 30 ||
        { fail "no instance carries a new 15 GB volume at /data"; return 1; }
    keys 7; sleep 0.3; keys o                      # back to the volumes from the offers
    wait_for "Volumes: " 10
}

t_delete_lost() {
    keys 7
    wait_for "e2e_vol" 10 || return 1
    vol_sel e2e_vol || return 1
    EID=$(vols "[x['id'] for x in v if x['label']=='e2e_vol'][0]")
    keys d
    wait_for "Delete volume $EID e2e_vol" 10 || return 1
    fault /api/v0/volumes/ DELETE lost || return 1
    fault /api/v0/volumes/ GET latency '"ms":2000' || return 1   # the re-read held: Enter falls while locked
    n0=$(deletes)
    keys Tab Enter
    said "the answer was lost" 20 || { fail "the loss was not said"; return 1; }
    keys Enter
    said_or_logged "volume $EID is gone: deleted" 20 7 || return 1
    sleep 1
    [ "$(deletes)" = $((n0 + 1)) ] || { fail "the delete was sent $(($(deletes) - n0)) times"; return 1; }
    [ "$(vols "len([x for x in v if x['label']=='e2e_vol'])")" = 0 ]
}

t_quit() {
    keys Escape 1            # q on another view goes to the instances first
    sleep 0.3
    rentop_quit
}

t_readonly() {
    tm kill-session -t "$E2E_SESSION" 2>/dev/null
    rentop_start -s 160x45 -k ro --read-only || return 1
    wait_for "Instances" 30 || return 1
    keys 7
    wait_for "shared_datasets" 20 || return 1
    not_on_screen "C clone" || return 1          # the hint bar hides the writes
    w=$(sim_state "writes()")
    vol_sel scratch || return 1
    for k in d c C i; do
        keys "$k"
        wait_for "read-only mode: volume-" 10 || return 1
        not_on_screen "[ Cancel ]" || return 1
        not_on_screen "C-s submit" || return 1
    done
    sleep 1
    [ "$(sim_state "writes()")" = "$w" ] || { fail "a write was sent under --read-only"; return 1; }
    keys Escape 1
    sleep 0.3
    rentop_quit
}

tap "volumes: the seeded volumes with size, where, state, cost per month, the instance using one" t_list
tap "volumes: d starts on Cancel and names what is lost; in use: refused with the service's words" t_delete_confirm_and_refused
tap "volumes: o lists the offers, c creates a volume on one" t_create
tap "volumes: C clones a volume (cloning)" t_clone
tap "volumes: i on a volume: the offers on its machine, the form with it linked (confirmation counts its cost)" t_link_on_create
tap "volumes: i rents on a volume offer's machine with a new volume (its cost per month confirmed)" t_new_on_create
tap "volumes: a lost delete is not sent again; the re-read's verdict is said" t_delete_lost
tap "volumes: q quits with status 0 and no sanitizer report" t_quit
tap "volumes: --read-only refuses c, C, d and i and sends nothing" t_readonly
e2e_done
