#!/bin/sh
# test_session_refused.sh: a 2FA session key the service refuses as an
# invalid key (401 "Invalid user key": logged out or revoked elsewhere)
# while the normal key works.  As the official CLI, rentop deletes the
# session file, sends each refused request once more with the normal key
# (a refusal means nothing was done), says so once in the event log, and
# the dashboard fills; the session key is never drawn.
. "$(dirname "$0")/lib.sh"

STALE=stale-session-key-0123456789abcdef
sim_start --seed 3 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
e2e_home
mkdir -p "$E2E_HOME/.config/vastai"
write_key_file "$E2E_HOME/.config/vastai/vast_tfa_key" "$STALE"
rentop_start -k home --log "$E2E_TMP/rentop.log" || { echo "not ok - rentop starts"; exit 1; }

t_fill() {
    wait_for "Instances" 30 || return 1
    wait_for "running" 20 || return 1
    [ ! -e "$E2E_HOME/.config/vastai/vast_tfa_key" ] || { fail "the session file is kept"; return 1; }
    sim_expect "d['requests']['/api/v0/users/current/']['last_auth']" full 40 || return 1
    not_on_screen "refused (HTTP 401" || return 1  # the dashboard is no error screen
}

t_said_once() {
    keys 2
    wait_for "Events:" 10 || return 1
    wait_for "2FA session key refused (HTTP 401 Invalid user key)" 10 || return 1
    n=$(screen | grep -c "2FA session key refused")
    [ "$n" = 1 ] || { fail "said $n times"; return 1; }
    case $(screen) in *"$STALE"*) fail "the session key is on screen"; return 1 ;; esac
    grep -qF "$STALE" "$E2E_TMP/rentop.log" && { fail "the session key is in the log"; return 1; }
    keys 1
    wait_for "ID" 5
}

tap "a refused session key: its file deleted, the normal key used, the dashboard fills" t_fill
tap "said once in the event log; the key never drawn or logged" t_said_once
tap "q quits with status 0 and no sanitizer report" rentop_quit
e2e_done
