#!/bin/sh
# test_template_rent.sh: c on a template rents with it (issue 23, "Launch
# again"): the offers view opens on a search for what the template needs
# (its extra_filters, here cuda_max_good>=12, and its recommended disk),
# Esc goes back to the templates; c on an offer opens the form filled from
# the template (its image, its hash) and the create sends template_hash_id,
# once, and is remembered by the template's hash.  Under --read-only, c in the templates view is refused.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/create_lib.sh"

sim_start --seed 1 --quiet --rate-limits off --speed 20 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x45 || { echo "not ok - rentop starts"; exit 1; }

XDG_STATE_HOME="$E2E_TMP/state"   # the remembered forms: this test's own
export XDG_STATE_HOME
TNAME="ComfyUI"
HASH=

to_template() {
    keys Escape
    keys : ; type_text "templates"; keys Enter
    wait_for "Templates:" 10 || return 1
    keys / ; keys C-u; type_text "$TNAME"; keys Enter
    wait_for "filter: $TNAME" 10 || return 1
    wait_for_re "$TNAME.*GB" 20 || return 1
}

t_search_filtered() {
    wait_for "Instances" 30 || return 1
    HASH=$(sim_state "next(t['hash_id'] for t in d['templates'] if t['name'] == '$TNAME')")
    [ -n "$HASH" ] || { fail "no template $TNAME in the simulator"; return 1; }
    to_template || return 1
    keys c
    wait_for "Offers:" 10 || return 1
    wait_for "cuda_max_good>=12" 10 || { fail "the template's filter is not the search"; return 1; }
    wait_for_re "[0-9]+ offers" 30 || return 1
    # the search the service got carries the filter and the template's disk
    body=$(sim_state "[v.get('last_body') for k, v in d['requests'].items() if '/bundles' in k]")
    echo "$body" | grep -q 'cuda_max_good' || { fail "search body: $body"; return 1; }
}

t_esc_back() {
    keys Escape
    wait_for "Templates:" 10 || return 1
    keys 3
    wait_for "Offers:" 10 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    line_with "Template (Enter picks)" | grep -q "$HASH" && { fail "the template still applies after Esc"; return 1; }
    keys Escape
    wait_gone "Rent offer" 5 || return 1
}

t_form_from_template() {
    to_template || return 1
    keys c
    wait_for "cuda_max_good>=12" 10 || return 1
    wait_for_re "[0-9]+ offers" 30 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    line_with "Template (Enter picks)" | grep -q "$HASH" || { fail "template: $(line_with 'Template (Enter')"; return 1; }
    line_with "Image" | grep -q "vastai/comfy:v0.2.2-cuda-12.1" || { fail "image: $(line_with Image)"; return 1; }
    line_with "Disk (GB)" | grep -q " 32 " || { fail "disk: $(line_with 'Disk (GB)')"; return 1; }
    keys Tab Tab Tab; type_text "e2e-tplrent"   # label
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    wait_for "e2e-tplrent" 30 || return 1
    sim_expect "count('/api/v0/asks')" 1 || return 1
    sim_expect "[x.get('template_hash_id') for x in insts if x.get('label') == 'e2e-tplrent']" "[\"$HASH\"]" || return 1
    body=$(sim_state "[v.get('last_body') for k, v in d['requests'].items() if '/api/v0/asks' in k]")
    [ "$(echo "$body" | grep -o "\"template_hash_id\": *\"$HASH\"" | wc -l)" = 1 ] || { fail "body: $body"; return 1; }
}

# the form sent with the template is remembered by its hash: the next c
# with the template offers it, C-g fills its label in
t_remembered_by_template() {
    keys 3
    wait_for "Offers:" 10 || return 1
    wait_for_re "[0-9]+ offers" 30 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    wait_for_flat "Last form sent for template $HASH" 5 || return 1
    keys C-g
    wait_for "e2e-tplrent" 5 || return 1
    keys Escape
    wait_for "Discard the form" 5 || return 1
    keys Tab Enter
    wait_gone "Rent offer" 5 || return 1
}

t_quit() { keys 1; sleep 0.5; rentop_quit; }

t_read_only() {
    rentop_start -s 160x45 --read-only || return 1
    wait_for "Instances" 30 || return 1
    to_template || return 1
    keys c
    wait_for "read-only" 10 || { screen_dump; return 1; }
    on_screen "Templates:" || return 1
    not_on_screen "cuda_max_good>=12" || return 1
    t_quit
}

tap "template rent: c searches the offers for what the template needs" t_search_filtered
tap "template rent: Esc goes back to the templates; the next c is a plain form" t_esc_back
tap "template rent: c on an offer: the form from the template; template_hash_id sent once" t_form_from_template
tap "template rent: the form sent is remembered by the template's hash" t_remembered_by_template
tap "template rent: q quits with status 0" t_quit
tap "template rent: refused under --read-only" t_read_only
e2e_done
