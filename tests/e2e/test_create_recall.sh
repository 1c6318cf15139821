#!/bin/sh
# test_create_recall.sh: the create form remembers the last form sent per
# image or template (issue 23, "Launch again").  A refused create is not
# remembered; a sent one is, in $XDG_STATE_HOME/rentop/forms, mode 0600, without the
# masked env (a secret) since "Remember secrets" was off; c on another offer
# of the same image offers it, C-g fills it in (the label, the disk) and
# the secret is not among it: sent again, the new instance has no env.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/create_lib.sh"

SECRET=E2E_RECALL_SECRET_x71
XDG_STATE_HOME="$E2E_TMP/state"
export XDG_STATE_HOME
FORMS="$XDG_STATE_HOME/rentop/forms"

sim_start --seed 1 --quiet --rate-limits off --speed 20 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x45 || { echo "not ok - rentop starts"; exit 1; }

t_refused_not_remembered() {
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "no search yet" 10 || return 1
    search "" || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    type_text "redis:7"
    keys Tab Tab C-u; type_text "24"          # disk
    keys Tab; type_text "e2e-recall"          # label
    keys Tab Tab; type_text "-e $SECRET=1"    # env: masked
    sim_post /__sim/set '{"what":"user","field":"credit","value":0.001}' || return 1
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    wait_for_re "[Ii]nsufficient" 20 || return 1
    on_screen "Rent offer" || { fail "the form closed"; return 1; }
    [ ! -e "$FORMS" ] || { fail "a refused form was remembered: $(cat "$FORMS")"; return 1; }
    sim_post /__sim/set '{"what":"user","field":"credit","value":250}' || return 1
}

t_sent_remembered() {
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    wait_for "e2e-recall" 30 || return 1
    sim_expect "len([x for x in insts if x.get('label') == 'e2e-recall'])" 1 || return 1
    env=$(by_label e2e-recall extra_env)
    echo "$env" | grep -q "$SECRET" || { fail "the env was not sent: $env"; return 1; }
    wait_begin 5
    while [ ! -s "$FORMS" ]; do wait_tick || { fail "no $FORMS"; return 1; }; done
    [ "$(stat -c %a "$FORMS")" = 600 ] || { fail "mode $(stat -c %a "$FORMS")"; return 1; }
    grep -q '"img:redis:7"' "$FORMS" || { fail "not kept by image: $(cat "$FORMS")"; return 1; }
    grep -q 'e2e-recall' "$FORMS" || { fail "the label not kept"; return 1; }
    ! grep -q "$SECRET" "$FORMS" || { fail "the secret env reached the disk"; return 1; }
}

t_offered_on_c() {
    keys 3
    wait_for "Offers:" 10 || return 1
    fresh || return 1
    keys Down c
    wait_for "Rent offer" 10 || return 1
    wait_for_flat "Last form sent for image redis:7" 5 || return 1
    on_screen "C-g recalls it" || return 1
    line_with "Image" | grep -q "redis:7" && { fail "filled before C-g"; return 1; }
    keys C-g
    wait_for_flat "Recalled the last form sent for image redis:7" 5 || return 1
    line_with "Image" | grep -q "redis:7" || { fail "image: $(line_with Image)"; return 1; }
    line_with "Label" | grep -q "e2e-recall" || { fail "label: $(line_with Label)"; return 1; }
    line_with "Disk (GB)" | grep -q " 24 " || { fail "disk: $(line_with "Disk (GB)")"; return 1; }
    line_with "Env, ports" | grep -q '\*' && { fail "env filled: $(line_with 'Env, ports')"; return 1; }
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    sim_expect "len([x for x in insts if x.get('label') == 'e2e-recall'])" 2 || return 1
    env=$(by_label e2e-recall extra_env)
    [ "$(echo "$env" | grep -o "$SECRET" | wc -l)" = 1 ] || { fail "the secret was sent again: $env"; return 1; }
}

# a bid offer: the note says the bid's min_bid and the remembered form both
t_bid_offer() {
    keys 3
    wait_for "Offers:" 10 || return 1
    to_type bid || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    wait_for_flat "min_bid" 5 || return 1
    wait_for_flat "Last form sent for image redis:7" 5 || return 1
    keys C-g
    wait_for "e2e-recall" 5 || return 1
    keys Escape
    wait_for "Discard the form" 5 || return 1
    keys Tab Enter
    wait_gone "Rent offer" 5 || return 1
}

tap "create recall: a refused form is not remembered" t_refused_not_remembered
tap "create recall: a sent form is remembered by image, mode 0600, without its secret" t_sent_remembered
tap "create recall: c on another offer offers it; C-g fills it, the secret not" t_offered_on_c
tap "create recall: on a bid offer the note says both the min_bid and the remembered form" t_bid_offer
t_quit() { keys 1; sleep 0.5; rentop_quit; }
tap "create recall: q quits with status 0 and no sanitizer report" t_quit
e2e_done
