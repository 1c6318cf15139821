#!/bin/sh
# test_templates.sh: template create, edit and delete in the templates
# overlay (:templates) against rentop-sim (screen and /__sim/state):
# a template created through the form is stored with the fields typed
# (the registry password too, never on screen, never in the --log file);
# a refused edit (the template changed elsewhere: 404 for the old hash_id)
# keeps the form with what was typed and the service's words; an edit gets a new hash_id, shown (the old one gone) with the
# selection kept on it; a recommended template (the platform's) is not
# offered for change; a delete asks first, on Cancel (Enter there sends
# nothing), then goes by numeric id; a create whose answer is lost is said
# unknown and sent once; under --read-only no template write is sent.
# Search: `:templates QUERY` and `/` (pre-filled with the query in force)
# send one template search in the CLI's query language, whose rows are the
# simulator's own answer to those select_filters; a query that does not
# parse shows the parser's message with its column and sends nothing (the
# simulator's request counters); `&` narrows the rows shown locally.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
LOG="$E2E_TMP/rentop.log"
rentop_start -s 140x44 --log "$LOG" || { echo "not ok - rentop starts"; exit 1; }

PASS=e2e-Pa55-wOrd-7731
NAME=e2e-tpl

# set_field TEXT: replace the focused form field's text.
set_field() {
    keys C-e C-u
    type_text "$1"
}
# tw: template writes (POST/PUT/DELETE on /api/v0/template/) the simulator served.
tw() {
    sim_state "sum(n for k, v in d['requests'].items() if '/api/v0/template' in k for m, n in v['methods'].items() if m != 'GET')"
}
# tg: template searches (GET /api/v0/template/) the simulator served.
tg() {
    sim_state "sum(n for k, v in d['requests'].items() if '/api/v0/template' in k for m, n in v['methods'].items() if m == 'GET')"
}
# tg_settled: tg once no template GET has come for 2 s (a search the pacer
# held back, e.g. the default listing's second request, is counted before)
tg_settled() {
    a=$(tg)
    while sleep 2; b=$(tg); [ "$a" != "$b" ]; do a=$b; done
    echo "$a"
}
# tfield NAME FIELD: a field of the simulator's template named NAME.
tfield() { sim_state "next((t.get('$2') for t in d['templates'] if t['name'] == '$1'), None)"; }
# select_tpl NAME: move the selection onto template NAME (the list: own
# first, then recommended; narrowed with / so that it is the only row).
select_tpl() {
    keys /
    type_text "$1"
    keys Enter
    wait_for "Templates: 1 shown" 10
}
# goto_tpl NAME: move the selection onto NAME in the unfiltered list (own
# first in the simulator's order, then the recommended ones).
goto_tpl() {
    n=$(sim_state "([t['name'] for t in d['templates'] if t['creator_id'] == 148213] + [t['name'] for t in d['templates'] if t['creator_id'] != 148213 and t.get('recommended')]).index('$1')")
    keys g
    i=0
    while [ "$i" -lt "$n" ]; do keys Down; i=$((i + 1)); done
}
# unfilter: clear the / filter and the query (back to own + recommended).
unfilter() {
    keys / C-u Enter
    keys s C-u Enter
    sleep 0.3
}
no_pass() {
    case $(screen) in *"$PASS"*|*n3w-Pa55*) fail "the registry password is on screen"; return 1 ;; esac
    return 0
}

t_open() {
    wait_for "Instances" 30 || return 1
    keys :
    type_text "templates"
    keys Enter
    wait_for "Templates: 5" 20 || return 1
    wait_for "new" 5
}

t_create() {
    w0=$(tw)
    keys n
    wait_for "New template" 10 || return 1
    type_text "$NAME"; keys Tab                     # name
    type_text "reg.example.com/me/app"; keys Tab    # image
    type_text "v2"; keys Tab                        # tag
    keys Right; keys Tab                            # launch: ssh -> ssh direct
    set_field 24; keys Tab                          # disk
    type_text "-e MODE=fast -p 8080:8080"; keys Tab # env
    keys Tab Tab Tab Tab                            # onstart args desc private
    type_text "reg.example.com"; keys Tab           # registry
    type_text "bob"; keys Tab                       # user
    type_text "$PASS"                               # password (masked)
    no_pass || return 1
    on_screen "New template" || return 1
    keys C-s
    wait_gone "New template" 20 || return 1
    sim_expect "next([t['image'], t['tag'], t['runtype'], t['ssh_direct'], t['recommended_disk_space'], t['env'], t['docker_login_repo'], t['docker_login_user'], t['docker_login_pass']] for t in d['templates'] if t['name'] == '$NAME')" \
        "[\"reg.example.com/me/app\", \"v2\", \"ssh\", true, 24.0, \"-e MODE=fast -p 8080:8080\", \"reg.example.com\", \"bob\", \"$PASS\"]" 20 || return 1
    [ "$(tw)" = $((w0 + 1)) ] || { fail "the create went $(( $(tw) - w0 )) times"; return 1; }
    # the new template is listed, selected
    wait_for_re "^ *$NAME  .*reg.example.com/me/app:v2" 20 || return 1
    keys Enter
    h=$(tfield "$NAME" hash_id)
    wait_for "hash_id: $h" 10 || return 1
    no_pass || return 1
    keys Escape
}

t_refused() {
    # another client edits the template while the form is open: the PUT by
    # the hash_id the form knows is refused (404), the form keeps the text
    old=$(tfield "$NAME" hash_id)
    select_tpl "$NAME" || return 1
    keys e
    wait_for "Edit template" 10 || return 1
    keys Tab Tab Tab Tab Tab Tab Tab Tab     # -> desc
    type_text "kept-after-refusal"
    curl -sS --max-time 10 -X PUT -H "Authorization: Bearer $SIM_KEY" -H 'Content-Type: application/json' \
        --data-binary "{\"hash_id\":\"$old\",\"readme\":\"elsewhere\"}" "$SIM_URL/api/v0/template/" >/dev/null || return 1
    w0=$(tw)
    keys C-s
    wait_for "No template with hash_id" 20 || return 1
    on_screen "Edit template" || return 1
    on_screen "kept-after-refusal" || return 1
    [ "$(tw)" = $((w0 + 1)) ] || { fail "the refused edit went $(( $(tw) - w0 )) times"; return 1; }
    [ "$(tfield "$NAME" desc)" = "" ] || { fail "the refused edit changed the template"; return 1; }
    keys Escape
    wait_gone "Edit template" 10 || return 1
    keys r
    sleep 1
}

t_edit() {
    unfilter
    old=$(tfield "$NAME" hash_id)
    id=$(tfield "$NAME" id)
    goto_tpl "$NAME"
    keys e
    wait_for "Edit template" 10 || return 1
    on_screen "$NAME" || return 1
    no_pass || return 1
    keys Tab Tab Tab Tab Tab Tab Tab Tab     # -> desc
    type_text "edited by e2e"
    keys C-s
    wait_gone "Edit template" 20 || return 1
    sim_expect "next(t['desc'] for t in d['templates'] if t['id'] == $id)" "edited by e2e" 20 || return 1
    sleep 2                                  # the list is fetched again
    new=$(tfield "$NAME" hash_id)
    [ "$new" != "$old" ] || { fail "the hash_id did not change"; return 1; }
    # the rest as it was: the password kept (the form never knew it)
    [ "$(tfield "$NAME" docker_login_pass)" = "$PASS" ] || { fail "the password changed"; return 1; }
    [ "$(tfield "$NAME" image)" = reg.example.com/me/app ] || { fail "the image changed"; return 1; }
    [ "$(tfield "$NAME" id)" = "$id" ] || { fail "the id changed"; return 1; }
    keys Enter
    wait_for "hash_id: $new" 10 || return 1
    not_on_screen "$old" || return 1
    wait_for "description: edited by e2e" 5 || return 1
    keys Escape
    wait_gone "description:" 10
}

t_not_ours() {
    w0=$(tw)
    unfilter
    select_tpl TensorFlow || return 1
    keys e
    wait_for "is not yours" 10 || return 1
    not_on_screen "Edit template" || return 1
    keys d
    sleep 0.5
    not_on_screen "Delete template" || return 1
    [ "$(tw)" = "$w0" ] || { fail "a write was sent for a recommended template"; return 1; }
    unfilter
}

t_delete() {
    w0=$(tw)
    id=$(tfield "$NAME" id)
    select_tpl "$NAME" || return 1
    keys d
    wait_for_flat "Delete template $NAME (id $id" 10 || return 1
    keys Enter                                # on Cancel: nothing sent
    wait_gone "Delete template" 10 || return 1
    sleep 1
    [ "$(tw)" = "$w0" ] || { fail "Enter on the fresh dialog sent something"; return 1; }
    [ "$(tfield "$NAME" id)" = "$id" ] || return 1
    keys d
    wait_for_flat "Delete template $NAME" 10 || return 1
    keys Tab Enter
    sim_expect "any(t['id'] == $id for t in d['templates'])" false 20 || return 1
    [ "$(tw)" = $((w0 + 1)) ] || { fail "the delete went $(( $(tw) - w0 )) times"; return 1; }
    wait_for "template $NAME deleted" 10 || return 1
    wait_for "no template matches the filter" 20 || return 1
    unfilter
}

t_lost() {
    w0=$(tw)
    keys n
    wait_for "New template" 10 || return 1
    type_text "e2e-lost"; keys Tab
    type_text "me/lost"
    sim_fault "/api/v0/template/" lost 1 || return 1
    keys C-s
    wait_for "the answer was lost" 30 || return 1
    wait_gone "New template" 10 || return 1
    sim_expect "next((t['image'] for t in d['templates'] if t['name'] == 'e2e-lost'), None)" me/lost 10 || return 1
    sleep 3
    [ "$(tw)" = $((w0 + 1)) ] || { fail "the lost create went $(( $(tw) - w0 )) times"; return 1; }
    wait_for "e2e-lost" 20
}

# A delete whose answer is lost: the dialog closes (nothing more is sent
# from it) and the list read again says the template is gone.
t_lost_delete() {
    w0=$(tw)
    id=$(tfield e2e-lost id)
    select_tpl e2e-lost || return 1
    keys d
    wait_for_flat "Delete template e2e-lost" 10 || return 1
    sim_post /__sim/fault "{\"path\":\"/api/v0/template/\",\"method\":\"DELETE\",\"kind\":\"truncated\",\"count\":1}" || return 1
    keys Tab Enter
    wait_for "the answer was lost" 30 || return 1
    wait_gone "Delete template" 10 || return 1
    wait_for "template e2e-lost is gone: deleted" 30 || return 1
    sim_expect "any(t['id'] == $id for t in d['templates'])" false 5 || return 1
    [ "$(tw)" = $((w0 + 1)) ] || { fail "the lost delete went $(( $(tw) - w0 )) times"; return 1; }
    unfilter
}

t_secrets() {
    keys Escape                        # the overlay closes first
    sleep 0.5
    rentop_quit || return 1
    [ -s "$LOG" ] || { fail "no --log file"; return 1; }
    if grep -qF "$PASS" "$LOG" "$E2E_TMP/rentop.stderr"; then fail "the password is in the log"; return 1; fi
    return 0
}

t_readonly() {
    tm kill-session -t "$E2E_SESSION" 2>/dev/null
    e2e_home
    rentop_start -s 140x44 --read-only || return 1
    w0=$(tw)
    wait_for "Instances" 30 || return 1
    keys :
    type_text "templates"
    keys Enter
    wait_for "Templates: " 20 || return 1
    not_on_screen " new " || return 1
    keys c
    sleep 0.5
    keys n
    sleep 0.5
    keys e
    sleep 0.5
    keys d
    sleep 0.5
    keys :
    type_text "template-create"
    keys Enter
    wait_for "read-only" 10 || return 1
    not_on_screen "New template" || return 1
    not_on_screen "Delete template" || return 1
    sleep 1
    [ "$(tw)" = "$w0" ] || { fail "a template write was sent under --read-only"; return 1; }
}

t_search() {
    # Tab completes the template fields after :templates (and a flag's values)
    keys :
    type_text "templates ssh_d"
    keys Tab
    wait_for_re "^:templates ssh_direct( |$)" 5 || return 1
    type_text "=t"
    keys Tab Enter
    want=$(sim_state "len([t for t in d['templates'] if t.get('ssh_direct')])")
    wait_for "Templates: $want for query: ssh_direct=true" 20 || return 1
    g0=$(tg_settled)
    keys :
    type_text "templates recommended=true"
    keys Enter
    want=$(sim_state "len([t for t in d['templates'] if t.get('recommended')])")
    wait_for "Templates: $want for query: recommended=true" 20 || return 1
    sim_expect "sum(n for k, v in d['requests'].items() if '/api/v0/template' in k for m, n in v['methods'].items() if m == 'GET') - $g0" 1 10 || return 1
    for n in $(sim_state "' '.join(t['name'].replace(' ', '_') for t in d['templates'] if t.get('recommended'))"); do
        wait_for "$(echo "$n" | tr _ ' ')" 5 || return 1
    done
    for n in $(sim_state "' '.join(t['name'].replace(' ', '_') for t in d['templates'] if not t.get('recommended'))"); do
        not_on_screen "$(echo "$n" | tr _ ' ')  " || return 1
    done
    # s opens the query line pre-filled with the query in force
    keys s
    wait_for_re "^search: recommended=true( |$)" 5 || return 1
    keys C-u
    type_text "name=TensorFlow"
    keys Enter
    wait_for "Templates: 1 for query: name=TensorFlow" 20 || return 1
    on_screen "TensorFlow" || return 1
    # the rows are the simulator's own answer to the filters sent
    [ "$(sim_state "len([t for t in d['templates'] if t['name'] == 'TensorFlow'])")" = 1 ] || return 1
}

t_bad_query() {
    wait_for "Templates: 1 for query" 5 || return 1
    sleep 1
    g0=$(tg)
    keys :
    type_text "templates imag=pytorch"
    keys Enter
    wait_for "did you mean image?" 10 || return 1
    on_screen "column 1" || return 1
    on_screen "nothing sent" || return 1
    keys s
    wait_for_re "^search: imag=pytorch( |$)" 5 || return 1 # the line typed, to correct
    keys C-u
    type_text "name=TensorFlow recommended>>true"
    keys Enter
    wait_for "column 28" 10 || return 1
    sleep 1
    [ "$(tg)" = "$g0" ] || { fail "a bad query reached the service ($(( $(tg) - g0 )) searches)"; return 1; }
    # the rows in force stay those of the last good query
    on_screen "Templates: 1 for query: name=TensorFlow" || return 1
    # back to own + recommended
    keys s C-u Enter
    wait_for "Templates: 5 (own first" 20 || return 1
}

# / narrows the rows shown as it is typed (the filter language: text,
# column=value, !text) and sends nothing; Esc clears it.
t_local_filter() {
    g0=$(tg_settled)
    keys /
    type_text "name=TensorFlow"
    wait_for "Templates: 1 shown" 10 || return 1
    on_screen "vastai/tensorflow" || return 1
    keys C-u
    type_text "!TensorFlow"
    wait_for "Templates: 4 shown" 10 || return 1
    not_on_screen "vastai/tensorflow" || return 1
    keys Enter
    wait_for "filter: !TensorFlow" 5 || return 1
    keys Escape
    wait_for "Templates: 5 (own first" 10 || return 1
    sleep 1
    [ "$(tg)" = "$g0" ] || { fail "the / filter sent $(( $(tg) - g0 )) template searches"; return 1; }
}

tap "templates: the overlay lists the simulator's templates" t_open
tap "templates: :templates QUERY (Tab completes its fields) and s search the service with the query language" t_search
tap "templates: a bad query shows the parser's message with the column and sends nothing" t_bad_query
tap "templates: / filters the rows shown and sends nothing; Esc clears it" t_local_filter
tap "templates: create through the form stores every field typed, the password masked" t_create
tap "templates: a refused edit keeps the form with what was typed and the service's words" t_refused
tap "templates: edit changes only what was typed; the new hash_id replaces the old, selection kept" t_edit
tap "templates: a recommended template is not offered for change" t_not_ours
tap "templates: delete asks first on Cancel, then deletes by numeric id" t_delete
tap "templates: a create whose answer is lost is said unknown and sent once" t_lost
tap "templates: a delete whose answer is lost is sent once; the re-read says it is gone" t_lost_delete
tap "templates: the password is in neither the log nor stderr" t_secrets
tap "templates: --read-only sends no template write" t_readonly
e2e_done
