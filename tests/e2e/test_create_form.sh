#!/bin/sh
# test_create_form.sh: the create form's keys (issue 21).  Text typed into
# the Onstart field is taken (a one-line script in place; a longer one says
# Enter edits it in $EDITOR), and the file $EDITOR gets ends with a
# newline; an error too long for the space beside its field is shown whole
# under the fields; Esc on a filled form asks before discarding it, the next c
# offers the draft, its secrets (env) only when asked, and nothing of it
# reaches the disk; a bid under min_bid is warned in the form and in the
# billing confirmation, whose words name the keys it takes (y neither rents
# nor closes; Tab, Enter rents); a rented draft is not offered again.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/create_lib.sh"

# $EDITOR: notes whether the file it got ends with a newline, adds a line
cat >"$E2E_TMP/eol-editor.sh" <<EOS
#!/bin/sh
last=\$(tail -c 1 "\$1" | od -An -tx1 | tr -d ' \n')
if [ "\$last" = 0a ]; then echo newline >"$E2E_TMP/eol"; else echo "no newline (\$last)" >"$E2E_TMP/eol"; fi
echo "echo from the editor" >>"\$1"
EOS
chmod 755 "$E2E_TMP/eol-editor.sh"
export EDITOR="$E2E_TMP/eol-editor.sh"

SECRET=E2E_DRAFT_SECRET_sv1

# The text of a dialog drawn over the form, its wrapped lines joined.
dialog_flat() { screen | awk -F'│' 'NF >= 5 { print $3 }' | tr '\n' ' ' | tr -s ' '; }

# wait_dialog TEXT: wait until TEXT is in dialog_flat.
wait_dialog() {
    wait_begin 5
    while :; do
        case $(dialog_flat) in *"$1"*) return 0 ;; esac
        wait_tick || { fail "'$1' not in the dialog: $(dialog_flat)"; return 1; }
    done
}

sim_start --seed 1 --quiet --rate-limits off --speed 20 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x45 || { echo "not ok - rentop starts"; exit 1; }

t_onstart_typed() {
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "no search yet" 10 || return 1
    search "" || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    type_text "nginx:latest"
    keys Tab Tab Tab Tab Tab Tab     # Onstart script
    type_text "echo typed here"
    wait_for "echo typed here" 5 || { fail "typed text dropped: $(line_with Onstart)"; return 1; }
    on_screen "Enter edits in \$EDITOR" || return 1
}

t_editor_newline() {
    keys Enter
    wait_for "echo typed here ... (36 bytes" 10 || return 1
    [ "$(cat "$E2E_TMP/eol" 2>/dev/null)" = newline ] ||
        { fail "the file \$EDITOR got: $(cat "$E2E_TMP/eol" 2>/dev/null)"; return 1; }
    # two lines now: typing says where they are edited, and changes nothing
    type_text "x"
    wait_for_flat "holds 2 lines: Enter edits them in \$EDITOR" 5 || return 1
    line_with "Onstart" | grep -q "echo typed here ..." || { fail "onstart: $(line_with Onstart)"; return 1; }
}

t_discard_asks() {
    keys Up Up Up; type_text "draft-label"   # Label
    keys Tab Tab; type_text "-e $SECRET=1"    # Env, ports
    keys Escape
    wait_for "Discard the form" 5 || return 1
    wait_dialog "kept as a draft for this session only (in memory, never on disk)" || return 1
    keys Enter                                # the dialog starts on Cancel
    wait_gone "Discard the form" 5 || return 1
    on_screen "draft-label" || { fail "the form lost what was typed"; return 1; }
    keys Escape
    wait_for "Discard the form" 5 || return 1
    keys Tab Enter
    wait_for "kept as a draft" 5 || return 1
    wait_gone "Rent offer" 5 || return 1
    [ "$(creates)" = 0 ] || { fail "a discarded form was sent"; return 1; }
    # the draft (and its secret) is in memory only
    found=$(grep -rIl "$SECRET" "$E2E_HOME" "$E2E_TMP" 2>/dev/null)
    [ -z "$found" ] || { fail "the draft's secret is on disk: $found"; return 1; }
}

t_draft_offered() {
    keys c
    wait_for "Last draft" 5 || return 1
    keys d                                    # Draft
    wait_for "Fill them in too?" 5 || return 1
    keys l                                    # Leave out
    wait_gone "Fill them in too?" 5 || return 1
    on_screen "draft-label" || return 1
    line_with "nginx:latest" >/dev/null || return 1
    line_with "Env, ports" | grep -q '\*' && { fail "the secret filled in unasked: $(line_with 'Env, ports')"; return 1; }
    # as it opened: Esc closes at once
    keys Escape
    wait_gone "Rent offer" 5 || return 1
    not_on_screen "Discard the form" || return 1
    keys c
    wait_for "Last draft" 5 || return 1
    keys d
    wait_for "Fill them in too?" 5 || return 1
    keys f                                    # Fill in
    wait_gone "Fill them in too?" 5 || return 1
    line_with "Env, ports" | grep -q '\*\*\*\*' || { fail "the secret not filled in: $(line_with 'Env, ports')"; return 1; }
    not_on_screen "$SECRET" || return 1
    keys Escape
    wait_gone "Rent offer" 5 || return 1
}

t_bid_under_min() {
    to_type bid || return 1
    keys c
    wait_for "Last draft" 5 || return 1
    keys e                                    # Empty form
    wait_gone "Last draft" 5 || return 1
    wait_for_flat "at or above min_bid" 5 || return 1
    type_text "nginx:latest"
    keys Up Up Up; keys C-u; type_text "400"  # the bid (before the registry login, Remember secrets)
    # an error too long for the space beside the field: whole, under the fields
    wait_for "! see below" 5 || return 1
    wait_for_flat "Bid (\$/h, 0.001-128): out of range: 400 is not between 0.001 and 128" 5 || return 1
    keys C-u; type_text "0.001"
    wait_gone "! see below" 5 || return 1
    wait_for_flat "is under min_bid" 5 || return 1
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    wait_dialog "WARNING: your bid \$0.001/h is under the offer's min_bid" || return 1
}

t_confirm_keys() {
    wait_dialog "Tab, Enter: rent. Enter on Cancel, Esc or q: back to the form." || return 1
    keys y
    sleep 1
    on_screen "Confirm billing" || { fail "y closed the confirmation"; return 1; }
    on_screen "Rent offer" || { fail "y closed the form"; return 1; }
    [ "$(creates)" = 0 ] || { fail "y rented"; return 1; }
    keys Escape
    wait_gone "Confirm billing" 5 || return 1
    on_screen "Rent offer" || return 1
    keys C-s
    wait_for "Confirm billing" 10 || return 1
    keys Tab Enter
    sim_expect "count('/api/v0/asks')" 1 || return 1
}

t_rented_draft_gone() {
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "Offers:" 10 || return 1
    wait_for_re "[0-9]+ offers" 30 || return 1
    keys c
    wait_for "Rent offer" 10 || return 1
    not_on_screen "Last draft" || return 1
    keys Escape
    wait_gone "Rent offer" 5
}

tap "create form: text typed into Onstart is taken" t_onstart_typed
tap "create form: the \$EDITOR file ends with a newline; typing into a longer script says Enter" t_editor_newline
tap "create form: Esc on a filled form asks; Cancel keeps it; Discard keeps a draft in memory only" t_discard_asks
tap "create form: the next c offers the draft, its secrets only when asked" t_draft_offered
tap "create form: an out-of-range bid's error is whole under the fields; a bid under min_bid is warned in the form and in the confirmation" t_bid_under_min
tap "create form: the confirmation names its keys; y neither rents nor closes; Tab Enter rents" t_confirm_keys
tap "create form: a draft that was rented is not offered again" t_rented_draft_gone
t_quit() { keys 1; sleep 0.5; rentop_quit; }

tap "create form: q quits with status 0 and no sanitizer report" t_quit
e2e_done
