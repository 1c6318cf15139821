#!/bin/sh
# test_hostile.sh: a label holding escape sequences (set in the simulator with
# /__sim/set) is drawn as harmless text: no raw ESC beyond tmux's own SGR in
# the captured pane, no title change, no bell, and the visible text stripped
# of the sequences.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
ID=$(first_inst "x.get('actual_status') == 'running'")
# An OSC title change, a screen clear, a cursor move, red SGR, a bell, a CR, a DCS.
HOSTILE='evil\u001b]0;PWNED-TITLE\u0007\u001b[2J\u001b[10;10Hx\u001b[31mRED\u0007\r\u001bP1$rQ\u001b\\end'
sim_post /__sim/set "{\"what\":\"instance\",\"id\":$ID,\"field\":\"label\",\"value\":\"$HOSTILE\"}" ||
    { echo "not ok - the simulator takes a hostile label"; exit 1; }
rentop_start -s 120x32 || { echo "not ok - rentop starts"; exit 1; }

t_harmless() {
    wait_for "$ID" 30 || return 1
    wait_for "evil" 15 || return 1
    title=$(tm display -p -t "$E2E_SESSION" '#{pane_title}')
    case $title in *PWNED*) fail "the label changed the terminal title to '$title'"; return 1 ;; esac
    # the sequences are gone, not shown as text either
    for frag in ']0;' 'PWNED' '[2J' '[10;10H' '[31m' 'P1$r'; do
        not_on_screen "$frag" || return 1
    done
    line=$(line_with "evil")
    note "label row: $line"
    case $line in *"$ID"*) ;; *) fail "the label is not on its instance's row"; return 1 ;; esac
    # tmux's capture keeps only SGR sequences (ESC [ ... m); anything else is raw.
    bad=$(screen_esc | sed 's/\x1b\[[0-9;:]*m//g' | grep -c "$(printf '\033')")
    [ "$bad" = 0 ] || { fail "$bad lines hold an escape that is not SGR"; return 1; }
    ctl=$(screen | tr -d '\n' | tr -d '[:print:]' | LC_ALL=C tr -d '\200-\377' | wc -c)
    [ "$ctl" = 0 ] || { fail "$ctl control characters on screen"; return 1; }
    case $line in *evil*RED*end*) ;; *) fail "the label's text is not shown in order"; return 1 ;; esac
}

t_detail_harmless() {
    select_row "$ID" || return 1
    keys Enter
    wait_for "Instance $ID" 10 || return 1
    wait_for "evil" 10 || return 1
    for frag in ']0;' 'PWNED' '[2J' '[31m'; do
        not_on_screen "$frag" || return 1
    done
    bad=$(screen_esc | sed 's/\x1b\[[0-9;:]*m//g' | grep -c "$(printf '\033')")
    [ "$bad" = 0 ] || { fail "$bad lines of the detail view hold an escape that is not SGR"; return 1; }
    title=$(tm display -p -t "$E2E_SESSION" '#{pane_title}')
    case $title in *PWNED*) fail "the detail view changed the title"; return 1 ;; esac
    keys Escape Escape
}

t_no_clear() {
    # the table around the row is intact (no clear, no cursor jump)
    for id in $(sim_state "' '.join(str(x['id']) for x in insts[:5])"); do
        on_screen "$id" || return 1
    done
}

tap "a label with escape sequences renders as plain text (no title change, no raw escapes)" t_harmless
tap "the detail view shows the hostile label as plain text too" t_detail_harmless
tap "the rest of the table is intact around the hostile label" t_no_clear
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
