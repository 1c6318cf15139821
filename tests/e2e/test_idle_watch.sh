#!/bin/sh
# test_idle_watch.sh: issue 25's idle watch seen through the terminal.  One
# running instance is pinned under 5 % GPU in the simulator, the others
# busy; rentop's test clock moves on in steps of 2 minutes (each step a
# refresh, a sample) until the window of idle_minutes (10 here) has passed:
# the row's status says "idle", the header says "idle $X.XX/h" with that
# row's price, the event log (2) has the event, and /idle keeps that row
# alone.  Another pinned over hot_temp says "hot" at once (/hot), a third
# at 95 % of its disk "disk" (/disk).  The GPU
# 1H column draws each row's hour; H hides and shows it.  A notify_command
# (notify_kinds = idle, hot, disk) receives each rise as JSON on its stdin,
# and the idle spend over idle_spend_limit as one more.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }

RUNNING="x.get('actual_status') == 'running' and x.get('intended_status') == 'running'"
IDLE=$(first_inst "$RUNNING")
HOT=$(first_inst "$RUNNING and x['id'] != $IDLE")
DISK=$(first_inst "$RUNNING and x['id'] not in ($IDLE, $HOT)")
[ -n "$IDLE" ] && [ "$IDLE" != None ] && [ -n "$HOT" ] && [ "$HOT" != None ] &&
    [ -n "$DISK" ] && [ "$DISK" != None ] || { echo "not ok - three running instances"; exit 1; }
DISK_GB=$(inst_field "$DISK" disk_space)

# every running instance busy and cool, but IDLE under 5 % and HOT at 91 C
pin_all() {
    for id in $(sim_state "' '.join(str(x['id']) for x in insts if $RUNNING)"); do
        case $id in
        "$IDLE") sim_post /__sim/instance "{\"id\":$id,\"gpu_util\":2,\"gpu_temp\":50}" ;;
        "$HOT") sim_post /__sim/instance "{\"id\":$id,\"gpu_util\":60,\"gpu_temp\":91}" ;;
        "$DISK") sim_post /__sim/instance \
            "{\"id\":$id,\"gpu_util\":60,\"gpu_temp\":50,\"disk_usage\":$(python3 -c "print($DISK_GB * 0.95)")}" ;;
        *) sim_post /__sim/instance "{\"id\":$id,\"gpu_util\":60,\"gpu_temp\":50}" ;;
        esac || return 1
    done
}

t_start() {
    pin_all || return 1
    e2e_home
    mkdir -p "$E2E_HOME/.config/rentop"
    HOOK=$E2E_TMP/hook.sh GOT=$E2E_TMP/got.json
    printf '#!/bin/sh\ncat >>"%s"\n' "$GOT" >"$HOOK" && chmod +x "$HOOK"
    printf 'idle_minutes = 10\nhot_temp = 85\nidle_spend_limit = 0.01\n' >"$E2E_HOME/.config/rentop/config"
    printf 'notify = osc9\nnotify_kinds = idle, hot, disk\nnotify_command = %s\n' "$HOOK" \
        >>"$E2E_HOME/.config/rentop/config"
    rentop_start -t -s 160x40 --refresh 2 || return 1
    wait_for "$IDLE" 30 || return 1
}

row_of() { line_with "$1 "; }

# hot: said on the first sample, in the row and by /hot
t_hot_at_once() {
    wait_for_re "^ *$HOT .* hot" 20 || return 1
    case $(row_of "$IDLE") in *idle*) fail "idle before its window: $(row_of "$IDLE")"; return 1 ;; esac
    not_on_screen "idle \$" || return 1
    keys /; type_text hot; keys Enter
    wait_for_re "^ *$HOT " 10 || return 1
    case $(screen) in *" $IDLE "*) fail "/hot shows $IDLE too"; return 1 ;; esac
    keys Escape
    wait_for_re "^ *$DISK .* disk" 10 || return 1
    keys /; type_text disk; keys Enter
    wait_for_re "^ *$DISK " 10 || return 1
    case $(screen) in *" $IDLE "*) fail "/disk shows $IDLE too"; return 1 ;; esac
    keys Escape
    wait_for "$IDLE" 10
}

idle_shown() { screen | grep -qE "^ *$IDLE .* idle"; }

# idle: after 10 minutes of samples under 5 %, not before
t_becomes_idle() {
    clock_advance 240 || return 1
    sleep 3
    case $(row_of "$IDLE") in *idle*) fail "idle after 4 minutes: $(row_of "$IDLE")"; return 1 ;; esac
    clock_until 120 idle_shown || return 1
    note "$(row_of "$IDLE")"
}

# the header: idle $X.XX/h, the row's $/H rounded to cents
t_header_sum() {
    price=$(row_of "$IDLE" | grep -oE '\$[0-9]+\.[0-9]+' | head -n 1)
    [ -n "$price" ] || { fail "no \$/H in the row: $(row_of "$IDLE")"; return 1; }
    want=$(printf 'idle $%.2f/h' "${price#\$}")
    wait_for "$want" 10 || { note "row: $(row_of "$IDLE")"; return 1; }
}

t_event() {
    keys 2
    wait_for_re "instance $IDLE( \\([^)]*\\))? idle: GPU under 5% for 10 min" 10 || return 1
    wait_for_re "instance $HOT( \\([^)]*\\))? hot: GPU at 91 C" 10 || return 1
    wait_for_re "instance $DISK( \\([^)]*\\))? disk 95% full \\(limit 90%\\)" 10 || return 1
    keys 1
}

# got KIND ID: a line of the hook's input of that kind about that instance
got() {
    python3 - "$GOT" "$1" "$2" <<'PY'
import json, sys
path, kind, iid = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    lines = open(path).read().splitlines()
except OSError:
    sys.exit(1)
for l in lines:
    j = json.loads(l)
    if j.get("kind") == kind and j.get("instance_id", 0) == iid:
        print(j["text"])
        sys.exit(0)
sys.exit(1)
PY
}

t_notify_json() {
    i=0
    until got idle "$IDLE" >/dev/null && got hot "$HOT" >/dev/null && got disk "$DISK" >/dev/null &&
        got idle 0 >/dev/null; do
        i=$((i + 1))
        [ $i -lt 50 ] || { fail "the hook got: $(cat "$GOT" 2>/dev/null)"; return 1; }
        sleep 0.2
    done
    case $(got idle "$IDLE") in *"idle: GPU under 5% for 10 min"*) ;;
        *) fail "idle text: $(got idle "$IDLE")"; return 1 ;; esac
    case $(got idle 0) in *"burn \$"*"over idle_spend_limit \$0.01/h"*) ;;
        *) fail "spend text: $(got idle 0)"; return 1 ;; esac
    # each said once: the hook saw no second idle line for the same instance
    n=$(grep -c "\"instance_id\": *$IDLE[,}]" "$GOT")
    [ "$n" = 1 ] || { fail "$n notifications about $IDLE: $(cat "$GOT")"; return 1; }
}

t_filter_idle() {
    wait_for "$IDLE" 10 || return 1
    keys /; type_text idle; keys Enter
    wait_for_re "^ *$IDLE .* idle" 10 || return 1
    n=$(screen | grep -cE '^ *[0-9]{4,} ')
    [ "$n" = 1 ] || { fail "/idle shows $n rows"; screen_dump; return 1; }
    keys Escape
}

# the GPU 1H column: the idle row's hour drawn at the lowest level, the
# busy ones higher; H hides it and shows it again
t_hist_column() {
    wait_for "GPU 1H" 10 || return 1
    row_of "$IDLE" | grep -q '▁' || { fail "no low sparkline in: $(row_of "$IDLE")"; return 1; }
    case $(row_of "$HOT") in *▁*) fail "the busy row drawn low: $(row_of "$HOT")"; return 1 ;; esac
    keys H
    wait_gone "GPU 1H" 10 || return 1
    keys H
    wait_for "GPU 1H" 10
}

# the detail view (Enter) charts the hour: GPU, temperature, memory
t_detail_charts() {
    keys /; type_text "$IDLE"; keys Enter
    wait_for_re "^ *$IDLE " 10 || return 1
    keys Enter
    wait_for "Instance $IDLE" 10 || return 1
    wait_for "GPU 2%  max 2%  (1h)" 10 || return 1
    wait_for "temp 50 C  max 50 C" 10 || return 1
    on_screen "mem " || return 1
    keys Escape
    wait_gone "Instance $IDLE" 10 || return 1
    keys Escape
}

# the account overview (5): burn and credit over the session, and the
# runway forecast with its date
t_account_money() {
    keys 5
    wait_for "email verified" 20 || return 1
    wait_for_re "burn \\\$[0-9.]+/h  max \\\$[0-9.]+/h  \(last hour\)" 10 || return 1
    wait_for_re "credit \\\$[0-9,.]+  \(last hour\)" 10 || return 1
    wait_for_re "credit runs out about [A-Z][a-z]{2} [0-9]{2} [A-Z][a-z]{2} 20[0-9]{2} [0-9]{2}:[0-9]{2} \(in " 10 || return 1
    keys 1
}

tap "rentop starts with every running instance pinned" t_start
tap "hot (GPU over hot_temp) and disk (over 90 % of disk_space) at once; /hot, /disk keep their rows" t_hot_at_once
tap "under 5 % for idle_minutes: the row says idle (not before)" t_becomes_idle
tap "the header says idle \$X.XX/h, the idle row's price" t_header_sum
tap "the event log has the idle, hot and disk events" t_event
tap "/idle keeps the idle row alone" t_filter_idle
tap "notify_command gets the idle, hot and disk rises and the idle spend as JSON" t_notify_json
tap "the GPU 1H column draws the hour; H hides and shows it" t_hist_column
tap "the detail view charts the hour of GPU, temperature and memory" t_detail_charts
tap "the account overview charts burn and credit and dates the runway" t_account_money
tap "q quits with status 0" rentop_quit
e2e_done
