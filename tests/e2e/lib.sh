# lib.sh: the shell library of the end-to-end suite, sourced by every
# tests/e2e/test_*.sh (and by screenshots.sh).
#
# It owns the moving parts of one test script: a private temp directory, one
# rentop-sim per script on a free loopback port, and rentop itself running in
# a detached tmux session (own socket, own HOME, TERM=xterm-256color) that the
# test drives with send-keys and reads back with capture-pane.  Cleanup is a
# trap that always kills the tmux server and the simulator, whatever way the
# script ends.  Results are TAP lines "ok - name" / "not ok - name"; the
# reasons of a failure (and a dump of the screen) are "# " lines in the log.
#
# Environment (from tests/run.sh): RENTOP, RENTOP_SIM, BUILD_DIR, SRCDIR.
# E2E_SCALE multiplies every timeout (the ASan/TSan runs are slower).
#
# The API key never appears on any argv: the test writes it into a 0600 file
# that rentop reads with --api-key-file (or into $HOME/.config/vastai/).

set -u

: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BUILD_DIR:=$SRCDIR/build/release}"
: "${RENTOP:=$BUILD_DIR/rentop}"
: "${RENTOP_SIM:=$BUILD_DIR/rentop-sim}"
export RENTOP RENTOP_SIM BUILD_DIR SRCDIR

# Sanitizer builds are several times slower: stretch the waits, never the checks.
if [ -z "${E2E_SCALE:-}" ]; then
    case "$RENTOP" in
    *asan*|*tsan*) E2E_SCALE=3 ;;
    *) E2E_SCALE=1 ;;
    esac
fi

E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/rentop-e2e.XXXXXX")
E2E_SOCK="$E2E_TMP/tmux.sock"
E2E_SESSION=rentop
E2E_FAILS=0
E2E_COUNT=0
SIM_PID=
SIM_URL=
SIM_KEY=
SIM_RO_KEY=
SIM_TOTP=
E2E_HOME=
E2E_WATCH=0

# ---- cleanup -----------------------------------------------------------------

# e2e_cleanup: kill the tmux server and the simulator this script started.
e2e_cleanup() {
    [ -n "${E2E_WATCHDOG:-}" ] && kill "$E2E_WATCHDOG" 2>/dev/null
    tmux -S "$E2E_SOCK" kill-server >/dev/null 2>&1
    if [ -n "$SIM_PID" ]; then
        kill "$SIM_PID" 2>/dev/null
        # give it a moment to exit, then make sure
        i=0
        while kill -0 "$SIM_PID" 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$SIM_PID" 2>/dev/null
        wait "$SIM_PID" 2>/dev/null
        SIM_PID=
    fi
    rm -f "$E2E_TMP/sim.pid"
    [ -n "${E2E_KEEP:-}" ] || rm -rf "$E2E_TMP"
}

# A watchdog for the one case a trap cannot catch: the script killed with
# SIGKILL (a runner's hard timeout).  It then ends the tmux server and the
# simulator, so nothing outlives the script.
E2E_PARENT=$$
(
    trap - EXIT INT TERM HUP
    while kill -0 "$E2E_PARENT" 2>/dev/null; do sleep 2; done
    tmux -S "$E2E_SOCK" kill-server >/dev/null 2>&1
    [ -s "$E2E_TMP/sim.pid" ] && kill "$(cat "$E2E_TMP/sim.pid")" 2>/dev/null
    [ -n "${E2E_KEEP:-}" ] || rm -rf "$E2E_TMP"
) </dev/null >/dev/null 2>&1 &
E2E_WATCHDOG=$!
trap 'e2e_cleanup' EXIT
trap 'e2e_cleanup; exit 130' INT
trap 'e2e_cleanup; exit 143' TERM HUP

# ---- TAP -----------------------------------------------------------------------

# note TEXT...: a diagnostic line in the log.
note() { printf '# %s\n' "$*"; }

# fail TEXT...: say why a check failed; always returns 1 so it ends a && chain.
fail() { printf '# FAIL: %s\n' "$*"; return 1; }

# tap NAME FUNC [ARGS...]: run one test function and print its TAP line
# (a script may redefine tap to prepare each test, then call e2e_tap).
tap() { e2e_tap "$@"; }
e2e_tap() {
    name=$1; shift
    E2E_COUNT=$((E2E_COUNT + 1))
    note "---- $name"
    e2e_now; tap_t0=$E2E_NOW
    if "$@"; then
        e2e_now
        note "(took $(( (E2E_NOW - tap_t0) / 100 )).$(( (E2E_NOW - tap_t0) % 100 / 10 ))s)"
        echo "ok - $name"
    else
        echo "not ok - $name"
        E2E_FAILS=$((E2E_FAILS + 1))
        screen_dump
        rentop_stderr_dump
    fi
}

# skip_all REASON: the script cannot run here (say so as a skipped test).
skip_all() {
    echo "ok - $(basename "$0" .sh) # SKIP $*"
    exit 0
}

# e2e_done: exit status of the script (non-zero when any test failed).
e2e_done() {
    [ "$E2E_FAILS" -eq 0 ]
}

# scaled SECONDS: a timeout stretched for slow builds.
scaled() { echo $(( $1 * E2E_SCALE )); }

# ---- the simulator ---------------------------------------------------------------

# sim_start [FLAGS...]: start rentop-sim on a free port and read its URL and keys.
# SIM_ARGS (split on blanks) goes before FLAGS: SIM_ARGS="--dialect live"
# runs a script against the documented live forms (as SIM_DIALECT=live does:
# tests/run.sh's LIVE_E2E items).
sim_start() {
    [ -x "$RENTOP_SIM" ] || { fail "no simulator at $RENTOP_SIM"; return 1; }
    : >"$E2E_TMP/sim.out"   # there to read before the simulator opens it
    # shellcheck disable=SC2086 # SIM_ARGS is a list of flags
    "$RENTOP_SIM" --port 0 ${SIM_DIALECT:+--dialect $SIM_DIALECT} ${SIM_ARGS:-} "$@" >"$E2E_TMP/sim.out" 2>"$E2E_TMP/sim.err" &
    SIM_PID=$!
    echo "$SIM_PID" >"$E2E_TMP/sim.pid"
    wait_begin 30
    while :; do
        # its first lines, read by the shell (whole lines only: one being
        # written waits for the next look)
        SIM_URL= SIM_KEY= SIM_RO_KEY= SIM_TOTP=
        while IFS= read -r line; do
            case $line in
            "rentop-sim listening on "http*) [ -n "$SIM_URL" ] || { SIM_URL=${line#rentop-sim listening on }; SIM_URL=${SIM_URL%% *}; } ;;
            "full-access key: "*) [ -n "$SIM_KEY" ] || { sim_line_value "$line"; SIM_KEY=$SLV; } ;;
            "read-only key: "*) [ -n "$SIM_RO_KEY" ] || { sim_line_value "$line"; SIM_RO_KEY=$SLV; } ;;
            "totp secret: "*) [ -n "$SIM_TOTP" ] || { sim_line_value "$line"; SIM_TOTP=$SLV; } ;;
            esac
        done <"$E2E_TMP/sim.out"
        if [ -n "$SIM_URL" ] && [ -n "$SIM_KEY" ] && [ -n "$SIM_RO_KEY" ]; then
            case " $* " in *" --tfa on "*) [ -n "$SIM_TOTP" ] && break ;; *) break ;; esac
        fi
        if ! kill -0 "$SIM_PID" 2>/dev/null; then
            sed 's/^/# sim: /' "$E2E_TMP/sim.err"
            SIM_PID=
            fail "rentop-sim exited before it listened"
            return 1
        fi
        wait_tick || { fail "rentop-sim did not print its URL and keys"; return 1; }
    done
    SIM_URL=${SIM_URL%/}
    return 0
}

# sim_line_value LINE: SLV becomes what follows "name: " and its blanks.
sim_line_value() {
    SLV=${1#*: }
    while :; do case $SLV in " "*) SLV=${SLV# } ;; *) break ;; esac; done
}

# sim_get PATH: GET a simulator path (control API or REST, no auth) to stdout.
sim_get() { curl -sS --max-time 30 "$SIM_URL$1"; }   # /__sim/state of 10,000 instances is 16 MB

# sim_post PATH JSON: POST a JSON body to a control path; fails on HTTP >= 400.
sim_post() {
    curl -sS -f --max-time 10 -X POST -H 'Content-Type: application/json' \
        --data-binary "$2" "$SIM_URL$1" >/dev/null || fail "POST $1 $2 refused"
}

# sim_fault PATH KIND COUNT [MS]: inject a fault on PATH for the next COUNT
# requests (MS: the latency or hang length; the simulator's default without it).
sim_fault() {
    sim_post /__sim/fault "{\"path\":\"$1\",\"kind\":\"$2\",\"count\":$3${4:+,\"ms\":$4}}"
}

# fault PATH METHOD KIND [EXTRA]: the next request of METHOD on PATH gets KIND
# (EXTRA: more JSON members, e.g. "\"ms\":2000").
fault() { sim_post /__sim/fault "{\"path\":\"$1\",\"method\":\"$2\",\"kind\":\"$3\",\"count\":1${4:+,$4}}"; }

# sent METHOD PATH: requests of METHOD the simulator counted on PATH exactly.
sent() {
    sim_state "sum(v['methods'].get('$1', 0) for k, v in d['requests'].items() if k.rstrip('/') == '$2'.rstrip('/'))"
}

# said TEXT SECS: TEXT shows (across wrapped lines) within SECS; quiet.
said() {
    wait_begin "$2"
    while :; do
        case $(screen_flat) in *"$1"*) return 0 ;; esac
        wait_tick || return 1
    done
}

# said_or_logged TEXT SECS VIEW: TEXT on screen within SECS, else in the
# event log (2; back to VIEW after); fails saying so when neither shows it.
said_or_logged() {
    said "$1" "$2" && return 0
    keys 2
    r=0
    said "$1" 10 || r=1
    keys "$3"
    sleep 0.3
    [ "$r" = 0 ] || fail "'$1' was not said, on screen or in the event log"
}

# cmd TEXT: Esc, then run :TEXT.
cmd() { keys Escape; sleep 0.2; keys :; type_text "$1"; keys Enter; }

# tfa_sim_one_code_used: rentop and the simulator again, the simulator with
# 2FA on (seed 5) and one backup code used by a 2FA login (9 left), so that a
# new full set tells a regeneration; rentop at 200x40 with its instances.
tfa_sim_one_code_used() {
    tm kill-server >/dev/null 2>&1
    kill "$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null; SIM_PID=
    sim_start --seed 5 --quiet --rate-limits off --tfa on || return 1
    printf 'Authorization: Bearer %s\n' "$SIM_KEY" >"$E2E_TMP/auth.hdr"
    code=$(sim_state "d['tfa']['backup_codes'][0]")
    curl -sS --max-time 10 -H @"$E2E_TMP/auth.hdr" -H 'Content-Type: application/json' -X POST \
        --data-binary "{\"backup_code\":\"$code\"}" "$SIM_URL/api/v0/tfa/" >/dev/null
    sim_expect "d['tfa']['backup_codes_remaining']" 9 5 || return 1
    rentop_start -s 200x40 || return 1
    wait_for "Instances" 30
}

# sim_state EXPR: evaluate the Python expression EXPR over GET /__sim/state
# (as d) and print it (true/false/null, JSON for lists and dicts); helpers:
# insts, inst(id) (an instance by id, None when gone) and count(path) (the
# requests the simulator served on every path containing path) and writes()
# (every POST, PUT and DELETE it served, but the reads the service takes as
# POST: the offer search and the serverless router's /get_* calls).
sim_state() { python3 -c "$E2E_PY_STATE" "$SIM_URL/__sim/state" "$1"; }

# sim_state_of FIELDS EXPR: sim_state with each instance narrowed to FIELDS
# (id,actual_status,...: GET /__sim/state?fields=), for large fleets (10,000
# instances are 16 MB whole, a second and more of CPU each read).
sim_state_of() { python3 -c "$E2E_PY_STATE" "$SIM_URL/__sim/state?fields=$1" "$2"; }

# The Python of sim_state and sim_expect: argv STATE_URL EXPR [WANT SECONDS].  With
# WANT it polls the state itself (every 0.05 s, one process for the whole
# wait instead of a curl and a python3 a poll) until EXPR prints WANT, and
# prints what it got last when SECONDS pass first (status 1).
E2E_PY_STATE='
import json, socket, sys, time
from urllib.parse import urlsplit
def get_state(url):   # plain HTTP/1.0 (no chunks): faster to start than urllib
    u = urlsplit(url)
    target = u.path + ("?" + u.query if u.query else "")
    with socket.create_connection((u.hostname, u.port), timeout=30) as c:
        c.sendall(("GET %s HTTP/1.0\r\nHost: sim\r\n\r\n" % target).encode())
        c.settimeout(30)
        parts = []
        while True:
            b = c.recv(1 << 20)
            if not b:
                break
            parts.append(b)
    head, _, body = b"".join(parts).partition(b"\r\n\r\n")
    if not head.split(b" ")[1].startswith(b"2"):
        raise RuntimeError("GET %s: %s" % (target, head.split(b"\r\n")[0].decode()))
    return json.loads(body)
def show(v):
    if isinstance(v, bool): return "true" if v else "false"
    if v is None: return "null"
    if isinstance(v, (list, dict)): return json.dumps(v)
    return str(v)
def value(d, expr):
    insts = d.get("instances") or []
    def inst(i):
        for x in insts:
            if int(x.get("id", -1)) == int(i):
                return x
        return None
    def count(p):
        return sum(v["count"] for k, v in d["requests"].items() if p in k)
    def writes():   # reads sent as POST (offer search, /get_* of the serverless router) do not count
        return sum(n for k, v in d["requests"].items() if "/bundles" not in k and "/get_" not in k
                   for m, n in v["methods"].items() if m != "GET")
    return show(eval(expr, {"d": d, "inst": inst, "count": count, "writes": writes, "insts": insts, "json": json}))
url, expr = sys.argv[1], sys.argv[2]
if len(sys.argv) < 5:
    print(value(get_state(url), expr))
    sys.exit(0)
want, end = sys.argv[3], time.monotonic() + float(sys.argv[4])
while True:
    try:
        got = value(get_state(url), expr)
    except Exception as e:
        got = "%s: %s" % (type(e).__name__, e)
    if got == want:
        sys.exit(0)
    if time.monotonic() >= end:
        print(got)
        sys.exit(1)
    time.sleep(0.05)
'

# e2e_now: set E2E_NOW to the time in centiseconds (since boot: only
# differences count).  A wait loop reads the clock on every tick, so it is
# read without a fork: /proc/uptime with the shell's own read (date where
# there is no /proc).
if [ -r /proc/uptime ]; then
    e2e_now() {
        read -r E2E_UP _ </proc/uptime
        E2E_CS=${E2E_UP#*.}     # two digits; "08" is no number to the shell
        E2E_NOW=$(( ${E2E_UP%.*} * 100 + ${E2E_CS#0} ))
    }
else
    e2e_now() { E2E_NOW=$(( $(date +%s) * 100 )); }
fi

# wait_begin TIMEOUT: start the clock of a wait loop (TIMEOUT seconds, scaled).
wait_begin() {
    e2e_now
    E2E_DL=$(( E2E_NOW + ${1:-15} * E2E_SCALE * 100 ))
    wait_n=0
}

# wait_tick: pause a wait loop once; false when its deadline has passed.  The
# pause is 0.05 s for the first 0.5 s, 0.1 s to 2 s and 0.25 s after (most
# waits end within a second; a long one is a refresh cycle): each tick costs
# the sleep and the loop's own probe (one tmux or curl), the clock none.
wait_tick() {
    wait_n=$((wait_n + 1))
    e2e_now
    [ "$E2E_NOW" -lt "$E2E_DL" ] || return 1
    if [ "$wait_n" -le 10 ]; then sleep 0.05
    elif [ "$wait_n" -le 25 ]; then sleep 0.1
    else sleep 0.25; fi
}

# sim_expect EXPR WANT [TIMEOUT]: wait until sim_state EXPR prints WANT.
sim_expect() {
    got=$(python3 -c "$E2E_PY_STATE" "$SIM_URL/__sim/state" "$1" "$2" $(( ${3:-15} * E2E_SCALE )) 2>&1) && return 0
    fail "simulator: $1 is '$got', expected '$2'"
}

# ---- rentop in tmux -----------------------------------------------------------------

# tm ARGS...: tmux on this script's private server.
tm() { tmux -S "$E2E_SOCK" "$@"; }

# e2e_home: a fresh HOME for rentop (no user config, no key files).
e2e_home() {
    E2E_HOME="$E2E_TMP/home"
    rm -rf "$E2E_HOME"
    mkdir -p "$E2E_HOME/.config"
}

# write_key_file PATH KEY: store a key with mode 0600.
write_key_file() {
    (umask 077; printf '%s\n' "$2" >"$1")
}

# tm_new_session WxH CMD: a detached session of this script's server running
# CMD.  A server ended by "tm kill-server" just before may still be going
# away (kill-server does not wait for it): new-session then reaches the
# dying server and fails ("server exited unexpectedly").  Wait for it to go,
# and try again a few times.
tm_new_session() {
    tries=0
    until tm -f "$E2E_TMP/tmux.conf" new-session -d -s "$E2E_SESSION" \
        -x "${1%x*}" -y "${1#*x}" "$2" 2>"$E2E_TMP/tmux.err"; do
        tries=$((tries + 1))
        [ $tries -lt 5 ] || { fail "tmux new-session failed: $(cat "$E2E_TMP/tmux.err")"; return 1; }
        tm kill-server >/dev/null 2>&1
        sleep 0.4
        tm list-sessions >/dev/null 2>&1 || rm -f "$E2E_SOCK"
    done
}

# rentop_start [-i] [-t] [-s WxH] [-k full|ro|home|none] [RENTOP FLAGS...]: start rentop
# against the simulator in a detached tmux session and wait for its screen.
# -k full (default): the full-access key in a 0600 file given by --api-key-file;
# -k ro: the read-only key the same way; -k home: the full key in
# $HOME/.config/vastai/vast_api_key (the official CLI's file); -k none: no key.
# The pane runs a launcher that records rentop's exit status in $E2E_TMP/rentop.rc,
# keeps its stderr in $E2E_TMP/rentop.stderr, then leaves a shell at the prompt.
# -i: the pane runs an interactive shell with job control instead, and the
# command ($E2E_CMD) is typed at its prompt (for C-z and fg; no rentop.rc).
# -t: the test clock, moved by clock_advance (--test-clock on a FIFO).
# E2E_ENV (NAME=VALUE words, unquoted values) is exported in the pane first.
rentop_start() {
    size=100x30 keymode=full interactive=0 testclock=
    while [ $# -gt 0 ]; do
        case $1 in
        -i) interactive=1; shift ;;
        -t) testclock=$E2E_TMP/clock; shift ;;
        -s) size=$2; shift 2 ;;
        -k) keymode=$2; shift 2 ;;
        *) break ;;
        esac
    done
    [ -x "$RENTOP" ] || { fail "no rentop at $RENTOP"; return 1; }
    [ -n "$E2E_HOME" ] || e2e_home
    keyarg=
    case $keymode in
    full) write_key_file "$E2E_TMP/api_key" "$SIM_KEY"; keyarg="--api-key-file $E2E_TMP/api_key" ;;
    ro) write_key_file "$E2E_TMP/api_key" "$SIM_RO_KEY"; keyarg="--api-key-file $E2E_TMP/api_key" ;;
    home) mkdir -p "$E2E_HOME/.config/vastai"
          write_key_file "$E2E_HOME/.config/vastai/vast_api_key" "$SIM_KEY" ;;
    env) ;;   # the key in VAST_API_KEY, exported by the launch script below
    none) ;;
    esac
    rm -f "$E2E_TMP/rentop.rc" "$E2E_TMP/rentop.stderr"
    E2E_CMD="'$RENTOP' --url '$SIM_URL' $keyarg"
    if [ -n "$testclock" ]; then
        rm -f "$testclock" && mkfifo "$testclock" || { fail "mkfifo $testclock"; return 1; }
        E2E_CMD="$E2E_CMD --test-clock '$testclock'"
    fi
    for a in "$@"; do E2E_CMD="$E2E_CMD '$a'"; done
    E2E_CMD="$E2E_CMD 2>'$E2E_TMP/rentop.stderr'"
    {
        echo '#!/bin/sh'
        echo "cd '$E2E_TMP'"
        echo "export HOME='$E2E_HOME' TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8"
        echo "unset VAST_API_KEY VAST_URL NO_COLOR XDG_CONFIG_HOME TMUX"
        # E2E_ENV: NAME=VALUE words for rentop's environment (TMUX=... to
        # test what it does under tmux)
        [ -n "${E2E_ENV:-}" ] && echo "export $E2E_ENV"
        # the shipped themes, as an installed rentop finds them in its data dir
        [ -d "$SRCDIR/themes" ] && echo "export RENTOP_THEMES='$SRCDIR/themes'"
        [ "$keymode" = env ] && echo "export VAST_API_KEY='$SIM_KEY'"
        if [ "$interactive" = 0 ]; then
            echo "$E2E_CMD"
            echo "echo \$? >'$E2E_TMP/rentop.rc'"
            echo "echo \"[rentop exited with status \$(cat '$E2E_TMP/rentop.rc')]\""
        fi
        echo "PS1='e2e-shell\$ ' exec sh -i"
    } >"$E2E_TMP/launch.sh"
    chmod 700 "$E2E_TMP/launch.sh"
    E2E_WATCH=$((1 - interactive))
    printf 'set -g status off\nset -g history-limit 100\nset -g escape-time 10\nset -g remain-on-exit on\n' \
        >"$E2E_TMP/tmux.conf"
    tm_new_session "$size" "$E2E_TMP/launch.sh" || return 1
    if [ "$interactive" = 1 ]; then
        wait_for "e2e-shell\$" 10 || return 1
        type_text "$E2E_CMD"
        keys Enter
    fi
    return 0
}

# clock_advance SECS: rentop's clocks (util_now, util_mono) jump SECS seconds
# forward, as if that much time had passed: its timers (toasts, stale
# markers, polling intervals, backoffs) fall due at once.  Needs rentop
# started with -t (--test-clock on the FIFO $E2E_TMP/clock); the write is
# bounded, as a FIFO without its reader (rentop gone) would block it.
clock_advance() {
    [ -p "$E2E_TMP/clock" ] || { fail "clock_advance: rentop was not started with -t"; return 1; }
    timeout 5 sh -c 'printf "%s\n" "$1" >"$2"' sh "$1" "$E2E_TMP/clock" ||
        { fail "clock_advance $1: rentop does not read its test clock"; return 1; }
}

# clock_until STEP CMD...: wait (60 s at most) until the command CMD holds,
# jumping rentop's clock STEP seconds at the start and about every second
# or two of the wait (a retry's answer may have restarted what is timed).
clock_until() {
    cu_step=$1; shift
    wait_begin 60
    cu_k=0
    until "$@"; do
        if [ $((cu_k % 20)) = 0 ]; then clock_advance "$cu_step" || return 1; fi
        cu_k=$((cu_k + 1))
        rentop_alive || { fail "rentop is gone while waiting for: $*"; return 1; }
        wait_tick || { fail "$* did not hold within 60 s of jumps of $cu_step s"; return 1; }
    done
}

# has TEXT: TEXT is on screen; has_re REGEX: a line matches (quiet; for
# clock_until and loops).
has() { case $(screen) in *"$1"*) return 0 ;; esac; return 1; }
has_re() { screen | grep -qE -- "$1"; }

# screen: the visible text of the pane.
screen() { tm capture-pane -p -t "$E2E_SESSION" 2>/dev/null; }

# screen_esc: the pane with its attributes as escape sequences (capture-pane -e).
screen_esc() { tm capture-pane -p -e -t "$E2E_SESSION" 2>/dev/null; }

# screen_dump: the screen into the log, for failures.
screen_dump() {
    tm has-session -t "$E2E_SESSION" 2>/dev/null || return 0
    note "screen ($(tm display -p -t "$E2E_SESSION" '#{pane_width}x#{pane_height}' 2>/dev/null)):"
    screen | sed 's/^/#  |/'
}

# rentop_stderr_dump: what rentop wrote on stderr (sanitizer reports land there).
rentop_stderr_dump() {
    [ -s "$E2E_TMP/rentop.stderr" ] || return 0
    note "rentop stderr:"
    head -n 60 "$E2E_TMP/rentop.stderr" | sed 's/^/#  !/'
}

# keys KEY...: send tmux key names (j, Enter, Tab, C-l, Escape, ...).
keys() { tm send-keys -t "$E2E_SESSION" "$@"; }

# type_text TEXT: send TEXT literally, character by character.
type_text() { tm send-keys -t "$E2E_SESSION" -l -- "$1"; }

# wait_for TEXT [TIMEOUT]: wait until TEXT (fixed string) is on screen.
wait_for() {
    wait_begin "${2:-15}"
    while :; do
        case $(screen) in *"$1"*) return 0 ;; esac
        rentop_alive || { fail "rentop is gone while waiting for '$1'"; return 1; }
        wait_tick || { fail "'$1' did not appear within ${2:-15}s (x$E2E_SCALE)"; return 1; }
    done
}

# screen_flat: the screen as one line, box-drawing borders and runs of blanks
# folded into single spaces, so that text word-wrapped in a dialog reads whole.
screen_flat() {
    screen | sed -e ':a' -e '$!{N;ba' -e '}' -e 's/[│┃║|]/ /g; s/\n/ /g; s/$/ /; s/  */ /g'
}

# wait_for_flat TEXT [TIMEOUT]: wait until TEXT is in screen_flat.
wait_for_flat() {
    wait_begin "${2:-15}"
    while :; do
        case $(screen_flat) in *"$1"*) return 0 ;; esac
        rentop_alive || { fail "rentop is gone while waiting for '$1'"; return 1; }
        wait_tick || { fail "'$1' did not appear (even across wrapped lines) within ${2:-15}s (x$E2E_SCALE)"; return 1; }
    done
}

# wait_for_re REGEX [TIMEOUT]: wait until an extended regex matches a screen line.
wait_for_re() {
    wait_begin "${2:-15}"
    while :; do
        screen | grep -qE -- "$1" && return 0
        rentop_alive || { fail "rentop is gone while waiting for /$1/"; return 1; }
        wait_tick || { fail "/$1/ did not match within ${2:-15}s (x$E2E_SCALE)"; return 1; }
    done
}

# wait_gone TEXT [TIMEOUT]: wait until TEXT is no longer on screen.
wait_gone() {
    wait_begin "${2:-15}"
    while :; do
        case $(screen) in *"$1"*) ;; *) return 0 ;; esac
        wait_tick || { fail "'$1' still on screen after ${2:-15}s (x$E2E_SCALE)"; return 1; }
    done
}

# on_screen TEXT: TEXT is on screen right now.
on_screen() { case $(screen) in *"$1"*) ;; *) fail "'$1' is not on screen" ;; esac; }

# not_on_screen TEXT: TEXT is not on screen right now.
not_on_screen() { case $(screen) in *"$1"*) fail "'$1' is on screen" ;; esac; }

# line_with TEXT: the first screen line holding TEXT.
line_with() { screen | grep -F -- "$1" | head -n 1; }

# rentop_alive: rentop has not exited (the launcher writes rentop.rc after it),
# or it is expected to be gone (after rentop_wait_exit).
rentop_alive() { [ "$E2E_WATCH" = 0 ] || [ ! -f "$E2E_TMP/rentop.rc" ]; }

# rentop_wait_exit [TIMEOUT]: wait for rentop to exit; prints nothing, sets RENTOP_RC.
rentop_wait_exit() {
    wait_begin "${1:-15}"
    while [ ! -s "$E2E_TMP/rentop.rc" ]; do
        wait_tick || { fail "rentop did not exit"; return 1; }
    done
    RENTOP_RC=$(cat "$E2E_TMP/rentop.rc")
    E2E_WATCH=0
    return 0
}

# rentop_quit: close views (Escape), quit with q, expect status 0 and a clean stderr (no sanitizer report).
rentop_quit() {
    [ ! -f "$E2E_TMP/rentop.rc" ] || { fail "rentop had already exited with status $(cat "$E2E_TMP/rentop.rc")"; return 1; }
    keys q
    rentop_wait_exit 20 || return 1
    [ "$RENTOP_RC" = 0 ] || { fail "rentop exited with status $RENTOP_RC"; return 1; }
    sanitizer_clean
}

# sanitizer_clean: rentop's stderr holds no AddressSanitizer/UBSan/TSan report.
sanitizer_clean() {
    if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer' \
        "$E2E_TMP/rentop.stderr" 2>/dev/null; then
        fail "sanitizer report on rentop's stderr"
        return 1
    fi
    return 0
}

# no_secret_on_screen: neither API key is visible.
no_secret_on_screen() {
    s=$(screen)
    case $s in *"$SIM_KEY"*|*"$SIM_RO_KEY"*) fail "an API key is on screen"; return 1 ;; esac
    return 0
}

# ---- instances -----------------------------------------------------------------------

# inst_field ID FIELD: a field of one instance in the simulator's state.
inst_field() { sim_state "(inst($1) or {}).get('$2')"; }

# first_inst PYCOND: the id of the first instance (by id) whose dict x satisfies PYCOND.
first_inst() {
    sim_state "next((x['id'] for x in sorted(insts, key=lambda x: x['id']) if ($1)), None)"
}

# select_row ID: move the selection onto the row of instance ID by filtering
# on its id, so the test does not depend on sort order.  Leaves the filter set.
select_row() {
    keys /
    type_text "$1"
    keys Enter
    wait_for "$1"
}

# rentop_pid: the pid of rentop (the child of the pane's launcher).
rentop_pid() {
    ppid=$(tm display -p -t "$E2E_SESSION" '#{pane_pid}' 2>/dev/null) || return 1
    pgrep -P "$ppid" | head -n 1
}

# term_restored: the pane is off the alternate screen with a visible cursor,
# and the tty modes (checked with stty in the shell left behind) are sane.
term_restored() {
    wait_for "e2e-shell" 10 || return 1
    alt=$(tm display -p -t "$E2E_SESSION" '#{alternate_on}')
    [ "$alt" = 0 ] || { fail "still on the alternate screen"; return 1; }
    cur=$(tm display -p -t "$E2E_SESSION" '#{cursor_flag}')
    [ "$cur" = 1 ] || { fail "the cursor is still hidden"; return 1; }
    rm -f "$E2E_TMP/stty.out"
    type_text "stty -a >'$E2E_TMP/stty.out'; echo stty-\$((40 + 2))-done"
    keys Enter
    wait_for "stty-42-done" 10 || return 1
    modes=$(tr ' ;' '\n\n' <"$E2E_TMP/stty.out" | grep -xE -- '-?(icanon|echo|isig|icrnl|opost)' | tr '\n' ' ')
    note "stty: $modes"
    case " $modes " in
    *" -icanon "*|*" -echo "*|*" -isig "*|*" -icrnl "*|*" -opost "*) fail "terminal modes not restored: $modes"; return 1 ;;
    *" icanon "*) return 0 ;;
    esac
    fail "no stty output"
}
