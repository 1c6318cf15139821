#!/bin/sh
# test_forms_lost.sh: a write form whose answer is lost is never sent again
# by a second C-s (issue 21).  For every write form but the create and
# template forms (test_create_lost.sh, test_templates.sh): env var add and
# edit, API key create, SSH key add, team role create and edit (account
# view), endpoint create and edit, workergroup create and edit (serverless
# view), and the backup-code regeneration (2FA view, a second simulator
# with 2FA on).  Each time a fault takes the answer ("truncated": acted on,
# the answer cut; "lost": acted on, no answer; "502": a front server's page,
# not acted on), C-s is pressed once more after "the answer was lost" shows,
# the simulator counted exactly one request of the write, and the screen
# says what the list, read again, shows ("... exists: created", "... not
# found: not added; press C-s to send again", "... cannot tell ...").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/autoscale_lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_HOME/.ssh"
ssh-keygen -q -t ed25519 -N '' -C e2e-lost -f "$E2E_HOME/.ssh/id_lost" </dev/null || exit 1
FP=$(ssh-keygen -l -f "$E2E_HOME/.ssh/id_lost.pub" | awk '{print $2}')
rentop_start -s 200x40 || { echo "not ok - rentop starts"; exit 1; }

# twice TEXT METHOD PATH: C-s, then once the answer is said lost (or what
# the re-read found is already said), C-s again; exactly one METHOD request
# on PATH reached the simulator (checked a moment after, for a late one),
# and TEXT was said: on screen, or, when the second C-s came after it and
# cleared the message line, in the event log (2; back to view $VIEW after).
VIEW=5
twice() {
    keys C-s
    seen=0
    wait_begin 20
    while :; do
        case $(screen_flat) in *"$1"*) seen=1; break ;; *"the answer was lost"*) break ;; esac
        wait_tick || { fail "neither a lost answer nor '$1' was said"; return 1; }
    done
    keys C-s
    sleep 1
    n=$(sent "$2" "$3")
    [ "$n" = 1 ] || { fail "$2 $3 reached the simulator $n times"; return 1; }
    [ "$seen" = 1 ] && return 0
    said_or_logged "$1" 10 "$VIEW"
}

t_env_add() {
    wait_for "Instances" 30 || return 1
    cmd "account env"
    wait_for "HF_TOKEN" 20 || return 1
    keys a
    wait_for "Add env var" 10 || return 1
    type_text "E2E_LOST"; keys Tab; type_text "lost-value"
    # a front server's 502 (not acted on); the re-read is held 2 s so that
    # the second C-s falls while the form is locked
    fault /api/v0/secrets/ POST 502 || return 1
    fault /api/v0/secrets/ GET latency '"ms":2000' || return 1
    twice "env var E2E_LOST not found: not added; press C-s to send again" POST /api/v0/secrets/ || return 1
    [ "$(sim_state "'E2E_LOST' in d['secrets']")" = false ] || { fail "E2E_LOST is stored"; return 1; }
    on_screen "Add env var" || return 1        # open again, what was typed kept
    on_screen "E2E_LOST" || return 1
    # the operator's own C-s now sends it (a second request, on purpose)
    keys C-s
    wait_for "env var E2E_LOST added" 20 || return 1
    [ "$(sent POST /api/v0/secrets/)" = 2 ] || { fail "the send on purpose did not go"; return 1; }
    sim_expect "d['secrets'].get('E2E_LOST')" lost-value 5
}

t_env_edit() {
    keys g
    wait_for "HF_TOKEN" 10 || return 1
    n=$(sim_state "sorted(d['secrets']).index('HF_TOKEN')")
    i=0; while [ "$i" -lt "$n" ]; do keys Down; i=$((i + 1)); done
    keys e
    wait_for "Edit env var" 10 || return 1
    type_text "lost-edit"
    fault /api/v0/secrets/ PUT truncated || return 1
    twice "env var HF_TOKEN exists, but the re-read cannot tell whether it was changed" PUT /api/v0/secrets/ || return 1
    sim_expect "d['secrets'].get('HF_TOKEN')" lost-edit 5 || return 1
    on_screen "Edit env var" || return 1       # locked for good; Esc closes
    keys Escape
    wait_gone "Edit env var" 10
}

t_apikey() {
    cmd "account apikeys"
    wait_for "SCOPE" 20 || return 1
    keys a
    wait_for "Create API key" 10 || return 1
    type_text "dup-key"
    fault /api/v0/auth/apikeys/ POST truncated || return 1
    twice "API key dup-key exists: created; its value was lost" POST /api/v0/auth/apikeys/ || return 1
    sim_expect "len([k for k in d['apikeys'] if k.get('name') == 'dup-key'])" 1 5 || return 1
    not_on_screen "Create API key"
}

t_ssh() {
    cmd "account ssh"
    wait_for "FINGERPRINT" 20 || return 1
    keys a
    wait_for "Add SSH key" 10 || return 1
    on_screen "id_lost.pub" || return 1
    fault /api/v0/ssh/ POST lost || return 1
    twice "SSH key $FP exists: added" POST /api/v0/ssh/ || return 1
    not_on_screen "Add SSH key"
}

t_role_create() {
    cmd "account roles"
    wait_for "PERMISSIONS" 20 || return 1
    wait_for "manager" 20 || return 1
    keys a
    wait_for "Create team role" 10 || return 1
    type_text "e2e-lost"
    fault /api/v0/team/roles/ POST truncated || return 1
    twice "team role e2e-lost exists: created" POST /api/v0/team/roles/ || return 1
    not_on_screen "Create team role" || return 1
    wait_for "e2e-lost" 20
}

t_role_edit() {
    # the role created just before (the list in the simulator's order)
    rname=e2e-lost
    rid=$(sim_state "next(r['id'] for r in d['roles'] if r['name'] == '$rname')")
    [ -n "$rid" ] && [ "$rid" != null ] || { fail "no role $rname"; return 1; }
    n=$(sim_state "[r['name'] for r in d['roles']].index('$rname')")
    keys g
    i=0; while [ "$i" -lt "$n" ]; do keys Down; i=$((i + 1)); done
    keys e
    wait_for "Edit team role" 10 || return 1
    keys Up; keys C-e; type_text "-x"             # the name
    fault "/api/v0/team/roles/$rid/" PUT truncated || return 1
    twice "team role $rname-x holds the new name and scope: changed" PUT "/api/v0/team/roles/$rid/" || return 1
    not_on_screen "Edit team role"
}

t_ep_create() {
    VIEW=4
    keys Escape
    keys 4
    wait_for "Serverless: " 20 || return 1
    wait_for "template " 20 || return 1
    keys c
    wait_for "Create an endpoint" 10 || return 1
    type_text "e2e-lost"
    fault /api/v0/endptjobs/ POST truncated || return 1
    twice "endpoint e2e-lost exists: created" POST /api/v0/endptjobs/ || return 1
    sim_expect "len([e for e in d['endpoints'] if e['endpoint_name'] == 'e2e-lost'])" 1 5 || return 1
    not_on_screen "Create an endpoint"
}

t_ep_edit() {
    fresh || return 1
    e=$(ep_id llm-chat)
    select_endpoint llm-chat
    keys e
    wait_for "Edit endpoint llm-chat ($e)" 10 || return 1
    set_field 17          # min_load
    fault "/api/v0/endptjobs/$e/" PUT truncated || return 1
    twice "endpoint llm-chat ($e) holds the new values: changed" PUT "/api/v0/endptjobs/$e/" || return 1
    not_on_screen "Edit endpoint"
}

t_wg_create() {
    fresh || return 1
    e=$(ep_id sdxl-gen)
    n0=$(sim_state "len([w for w in d['workergroups'] if w['endpoint_id'] == $e])")
    select_endpoint sdxl-gen
    keys a
    wait_for "New workergroup on sdxl-gen ($e)" 10 || return 1
    h=$(sim_state "d['templates'][0]['hash_id']")
    set_field "$h"
    fault /api/v0/workergroups/ POST truncated || return 1
    twice "a new workergroup on endpoint sdxl-gen exists: created" POST /api/v0/workergroups/ || return 1
    sim_expect "len([w for w in d['workergroups'] if w['endpoint_id'] == $e])" $((n0 + 1)) 5 || return 1
    not_on_screen "New workergroup"
}

t_wg_edit() {
    fresh || return 1
    e=$(ep_id llm-chat)
    g=$(wg_of "$e")
    select_endpoint llm-chat
    keys Down e
    wait_for "Edit workergroup $g" 10 || return 1
    set_field 21          # min_load
    fault "/api/v0/workergroups/$g/" PUT truncated || return 1
    twice "workergroup $g holds the new values: changed" PUT "/api/v0/workergroups/$g/" || return 1
    not_on_screen "Edit workergroup"
}

# The backup codes: a simulator with 2FA on (one TOTP method).  One code is
# used up first (a 2FA login), so that a new full set tells a regeneration.
t_regen() {
    command -v oathtool >/dev/null 2>&1 || { note "SKIP: oathtool is not installed"; return 0; }
    tfa_sim_one_code_used || return 1
    keys 5
    wait_for "Overview" 15 || return 1
    keys t
    wait_for "backup codes     9 left" 20 || return 1
    keys b
    wait_for "Regenerate backup codes" 10 || return 1
    keys Tab
    type_text "$(oathtool --totp -b "$SIM_TOTP")"
    fault /api/v0/tfa/regen-backup-codes/ PUT truncated || return 1
    twice "the backup codes are a full set: regenerated" PUT /api/v0/tfa/regen-backup-codes/ || return 1
    not_on_screen "Regenerate backup codes" || return 1
    sim_expect "d['tfa']['backup_codes_remaining']" 10 5
}

tap "env var add, 502: sent once, re-read: not found, not added; a later C-s sends it on purpose" t_env_add
tap "env var edit, truncated: sent once, re-read cannot tell (values masked), stays locked" t_env_edit
tap "API key create, truncated: sent once, re-read: dup-key exists, created" t_apikey
tap "SSH key add, answer lost: sent once, re-read: the fingerprint exists, added" t_ssh
tap "team role create, truncated: sent once, re-read: exists, created" t_role_create
tap "team role edit, truncated: sent once, re-read: holds the new name, changed" t_role_edit
tap "endpoint create, truncated: sent once, re-read: exists, created" t_ep_create
tap "endpoint edit, truncated: sent once, re-read: holds the new values, changed" t_ep_edit
tap "workergroup create, truncated: sent once, re-read: a new one exists, created" t_wg_create
tap "workergroup edit, truncated: sent once, re-read: holds the new values, changed" t_wg_edit
tap "backup-code regeneration, truncated: sent once, re-read: a full new set, regenerated" t_regen
# from the first view (q closes the others first)
t_quit() { keys Escape 1; sleep 0.5; rentop_quit; }
tap "q quits with status 0 and no sanitizer report" t_quit
e2e_done
