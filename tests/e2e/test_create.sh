#!/bin/sh
# test_create.sh: renting from the offers view (c): the create form, its
# billing confirmation (Cancel sends nothing), a field the client refuses
# and a create the service refuses (the form stays with what was typed and
# the service's words), an on-demand create with image, disk, label, env,
# ports and a long onstart script (edited in $EDITOR, sent compressed) and
# a bid create at the prefilled minimum bid, each checked in the
# simulator's state.  test_create_lost.sh: lost answers and --read-only;
# test_replace.sh: O, the template picker and :templates.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/create_lib.sh"

sim_start --seed 1 --quiet --rate-limits off --speed 20 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x45 || { echo "not ok - rentop starts"; exit 1; }

t_cancel() {
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "no search yet" 10 || return 1
    search "" || return 1
    fill_form "nginx:latest" "e2e-cancel" || return 1
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    on_screen "Billing starts when it is created" || return 1
    screen_flat | grep -q 'storage of 20 GB' || { fail "no storage price for 20 GB"; return 1; }
    keys Enter        # the dialog starts on Cancel
    wait_for "nothing was sent" 10 || return 1
    on_screen "e2e-cancel" || { fail "the form lost what was typed"; return 1; }
    sleep 1
    [ "$(creates)" = 0 ] || { fail "a cancelled create was sent"; return 1; }
}

t_invalid_field() {
    # still in the form: an image the client refuses, nothing sent
    keys BTab BTab BTab BTab BTab
    keys C-u; type_text "Not An Image"
    keys C-s
    wait_for "Confirm billing" 3 >/dev/null 2>&1 && { fail "an invalid image was confirmed"; return 1; }
    screen | grep -qi "image" || return 1
    on_screen "! " || { fail "no field marked invalid"; return 1; }
    [ "$(creates)" = 0 ] || { fail "an invalid form was sent"; return 1; }
    keys C-u; type_text "nginx:latest"
}

t_service_refuses() {
    sim_post /__sim/set '{"what":"user","field":"credit","value":0.001}' || return 1
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    wait_for_re "[Ii]nsufficient" 20 || return 1
    on_screen "Rent offer" || { fail "the form closed"; return 1; }
    on_screen "e2e-cancel" || { fail "the form lost what was typed"; return 1; }
    [ "$(creates)" = 1 ] || { fail "creates: $(creates)"; return 1; }
    sim_post /__sim/set '{"what":"user","field":"credit","value":250}' || return 1
}

t_create_ondemand() {
    # the label, then the onstart script through $EDITOR (over 4,048 chars)
    # the focus is on the image (the first field): the label is the fourth
    on_screen "Rent offer" || return 1
    keys Tab Tab Tab C-u; type_text "e2e-ondemand"
    keys Tab Tab Tab Enter           # onstart: $EDITOR
    wait_for "echo onstart line 0" 10 || return 1
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    # the instance table with the new one selected
    wait_for "e2e-ondemand" 30 || return 1
    sim_expect "len([x for x in insts if x.get('label') == 'e2e-ondemand'])" 1 || return 1
    [ "$(by_label e2e-ondemand image_uuid)" = '["nginx:latest"]' ] || { fail "image $(by_label e2e-ondemand image_uuid)"; return 1; }
    [ "$(by_label e2e-ondemand disk_space)" = '[20.0]' ] || { fail "disk $(by_label e2e-ondemand disk_space)"; return 1; }
    [ "$(by_label e2e-ondemand image_runtype)" = '["ssh_proxy"]' ] || { fail "runtype $(by_label e2e-ondemand image_runtype)"; return 1; }
    env=$(by_label e2e-ondemand extra_env)
    echo "$env" | grep -q 'E2E_VAR' || { fail "env $env"; return 1; }
    body=$(sim_state "[v.get('last_body') for k, v in d['requests'].items() if '/api/v0/asks' in k]")
    echo "$body" | grep -q '"-p 8080:8080"' || { fail "ports not sent: $body"; return 1; }
    os=$(by_label e2e-ondemand onstart)
    echo "$os" | grep -q 'base64 -d | gunzip' || { fail "onstart not compressed: $(echo "$os" | cut -c1-120)"; return 1; }
    [ "$(by_label e2e-ondemand is_bid)" = '[false]' ] || { fail "is_bid $(by_label e2e-ondemand is_bid)"; return 1; }
    # selected in the table (the selection's row holds the label)
    screen_esc | grep 'e2e-ondemand' | grep -q '\[7m\|\[4[0-9];' || note "selection attribute not detected"
    [ "$(creates)" = 2 ] || { fail "creates: $(creates)"; return 1; }
    # its progress: it reaches running in the table
    wait_for_re "e2e-ondemand +running" 60 || return 1
}

t_create_bid() {
    keys 3
    wait_for "Offers:" 10 || return 1
    to_type bid || return 1
    wait_for_re "[0-9]+ offers" 30 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    on_screen "(interruptible)" || return 1
    on_screen "Bid (\$/h" || return 1
    type_text "nginx:latest"
    keys Tab Tab Tab; type_text "e2e-bid"
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    on_screen "Interruptible" || return 1
    keys Tab Enter
    wait_for "e2e-bid" 30 || return 1
    sim_expect "len([x for x in insts if x.get('label') == 'e2e-bid'])" 1 || return 1
    [ "$(by_label e2e-bid is_bid)" = '[true]' ] || { fail "is_bid $(by_label e2e-bid is_bid)"; return 1; }
}

# A create whose answer is lost: said unknown, sent once, never again.




tap "billing confirmation Cancel sends nothing" t_cancel
tap "a field the client refuses: marked, nothing sent" t_invalid_field
tap "the service refuses: the form stays with its words" t_service_refuses
tap "on-demand create: image, disk, label, env, ports, long onstart" t_create_ondemand
tap "bid create at the minimum bid" t_create_bid
# from the first view (q closes the others first)
t_quit() { keys 1; sleep 0.5; rentop_quit; }
tap "q quits with status 0 and no sanitizer report" t_quit
e2e_done
