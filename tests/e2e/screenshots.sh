#!/bin/sh
# screenshots.sh BUILD_DIR: `make screenshots`.  Renders real PNGs of the
# running program into screenshots/: the seeded instance table, the detail
# view, the ports list, the destroy dialog, the help screen, the serverless and log views,
# the workers of an endpoint, the offers view, the create form, the replacement of a failed instance
# (O, then c), the volumes view, the account view, the billing section, the 2FA set-up and the
# light theme.
#
# Pipeline per picture: rentop runs against rentop-sim in a detached tmux
# session (lib.sh); `tmux capture-pane -e -p -N` gives the screen with its
# colours as SGR sequences; `aha` turns that into HTML, which is wrapped in a
# page with a dark background and a monospace font; headless Chromium takes
# the screenshot.  chromium, aha and a monospace font are installed with
# apt-get when missing (as root, or through sudo).
set -u
[ $# -ge 1 ] && BUILD_DIR=$(cd "$1" && pwd)
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
export BUILD_DIR SRCDIR
. "$SRCDIR/tests/e2e/lib.sh"

OUT=$SRCDIR/screenshots
COLS=120 ROWS=32

# need_pkgs: install the Debian packages of missing tools.
need_pkgs() {
    pkgs=
    command -v aha >/dev/null 2>&1 || pkgs="$pkgs aha"
    command -v chromium >/dev/null 2>&1 || pkgs="$pkgs chromium"
    [ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || pkgs="$pkgs fonts-dejavu-core"
    [ -n "$pkgs" ] || return 0
    echo "screenshots: installing$pkgs"
    if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
        echo "screenshots: need$pkgs and neither root nor sudo is available" >&2; return 1
    fi
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs ||
        { $sudo apt-get update && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs; }
}

# shoot NAME TITLE: the current screen into $OUT/NAME.png.
shoot() {
    html=$E2E_TMP/$1.html
    {
        printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s</title>\n' "$2"
        printf '<style>html,body{margin:0;background:%s;}\n' "$PAGE_BG"
        printf 'pre{margin:0;padding:14px 16px;color:%s;background:%s;' "$PAGE_FG" "$PAGE_BG"
        printf 'font-family:"DejaVu Sans Mono",monospace;font-size:15px;line-height:18px;}</style>\n'
        printf '</head><body><pre>'
        # --black: colours as the terminal shows them (no swap for a light page)
        tm capture-pane -p -e -N -t "$E2E_SESSION" | aha --black --no-header
        printf '</pre></body></html>\n'
    } >"$html"
    w=$((COLS * 9 + 40)) h=$((ROWS * 18 + 30))
    prof=$(mktemp -d "$E2E_TMP/chrome.XXXXXX")
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --user-data-dir="$prof" --window-size="$w,$h" \
        --screenshot="$OUT/$1.png" "file://$html" >"$E2E_TMP/chrome-$1.log" 2>&1
    if [ -s "$OUT/$1.png" ]; then
        echo "screenshots: $OUT/$1.png"
    else
        cat "$E2E_TMP/chrome-$1.log" >&2
        echo "screenshots: chromium made no $1.png" >&2
        return 1
    fi
}

# close_form: Esc on the create form; a filled one asks first (Discard).
close_form() {
    keys Escape
    sleep 0.5
    case $(screen) in *"Discard the form"*) keys Tab Enter ;; esac
    wait_gone "Rent offer" 10
}

# replace_shot: O on a failed instance (the failure kinds in turn, until one
# has offers like it), its offers view, then c: the create form prefilled
# from it.  Each step waits for its own text (the search's answer is its
# "N offers" status; the form needs the instance read first), with limits
# long enough for the paced searches; leaves the instance table unfiltered.
replace_shot() {
    cands=$(sim_state "' '.join(str(x['id']) for k in ('created', 'exited', 'offline', 'unknown') for x in sorted(insts, key=lambda x: x['id']) if x.get('actual_status') == k and x.get('intended_status') == 'running')")
    for id in $cands; do
        keys 1; wait_for "$first" 10 || return 1
        keys / ; type_text "$id"; keys Enter; wait_for "$id" 10 || return 1
        wait_for_re "Instances 1/[0-9]" 10 || return 1
        keys O
        # an image failure asks first: fix the image, offers like it
        sleep 1
        case $(screen) in *"Replace: its image failed"*) keys F ;; esac
        wait_for "REPLACE $id" 20 || return 1
        wait_for_re "[0-9]+ offers" 90 || return 1
        if screen | grep -qE " 0 offers"; then
            note "no offers like instance $id: the next failed one"
            keys Escape; wait_gone "REPLACE $id" 10; keys 1; keys Escape
            continue
        fi
        # c waits for the instance's read (the form is prefilled from it)
        i=0
        while [ $i -lt 10 ]; do
            keys c; wait_for "Rent offer" 5 && break
            i=$((i + 1))
        done
        [ $i -lt 10 ] || return 1
        settle && shoot replace "rentop: O on a failed instance, then c: the form prefilled from it"
        rc=$?
        close_form
        keys Escape; wait_gone "REPLACE $id" 10
        keys 1; wait_for "$id" 10; keys Escape
        return $rc
    done
    fail "no failed instance has offers like it"
}

# settle: let the screen finish drawing (two identical captures in a row).
settle() {
    prev='' i=0
    while [ $i -lt 50 ]; do
        cur=$(screen_esc | cksum)
        [ "$cur" = "$prev" ] && return 0
        prev=$cur i=$((i + 1))
        sleep 0.2
    done
}

need_pkgs || exit 1
mkdir -p "$OUT"
rm -f "$OUT/instances.png" "$OUT/detail.png" "$OUT/destroy-dialog.png" "$OUT/help.png" "$OUT/light-theme.png" "$OUT/account.png" "$OUT/tfa-qr.png" "$OUT/offers.png" "$OUT/serverless.png" "$OUT/create-form.png" "$OUT/replace.png" "$OUT/logs.png" "$OUT/volumes.png" "$OUT/ports.png" "$OUT/workers.png" "$OUT/billing.png"
sim_start --seed 1 --quiet --rate-limits off || exit 1
first=$(first_inst "x.get('actual_status') == 'running'")

run_set() {   # run_set THEME_ARGS...: the pictures of one rentop run
    rentop_start -s "${COLS}x$ROWS" "$@" || return 1
    wait_for "$first" 30 || return 1
    # the header's state counts (at 120 columns the e-mail address makes room for them)
    wait_for_re "[0-9]+ running [0-9]+ booting [0-9]+ stopped [0-9]+ failed" 30 || return 1
}

PAGE_BG='#101218' PAGE_FG='#d8dee9'
ok=0
if run_set; then
    settle; shoot instances "rentop: instances" || ok=1
    keys '?'; wait_for "Help  (Esc" 10 && settle && shoot help "rentop: help" || ok=1
    keys Escape; wait_gone "Help  (Esc" 10
    keys Enter; wait_for "status_msg" 10 && settle && shoot detail "rentop: instance detail" || ok=1
    keys Escape; wait_for "$first" 10
    keys P; wait_for "Ports of instance" 10 && wait_for "http://" 10 && settle &&
        shoot ports "rentop: the ports list of a running instance" || ok=1
    keys Escape; wait_gone "Ports of instance" 10
    keys D; wait_for "Destroy instance" 10 && settle && shoot destroy-dialog "rentop: destroy dialog" || ok=1
    keys Escape; wait_gone "Destroy instance" 10
    keys 4; wait_for "every worker" 30 && wait_for "template " 10 &&
        wait_gone "workers: ..." 30 && settle &&
        shoot serverless "rentop: serverless endpoints and workergroups" || ok=1
    keys Enter; wait_for "Workers of llm-chat" 10 && wait_for_re " (RUNNING|IDLE) " 20 &&
        wait_for "last hour" 10 && settle &&
        shoot workers "rentop: the workers of an endpoint, its cost per hour and its last hour" || ok=1
    keys q; wait_for "every worker" 10
    keys L; wait_for "following (every 3s)" 15 && wait_for "autoscaler" 10 && settle &&
        shoot logs "rentop: an endpoint's log, followed" || ok=1
    keys q; wait_for "$first" 10
    keys 3; wait_for "no search yet" 10
    keys : ; type_text "offers num_gpus>=2 reliability>0.95 -o dph+"; keys Enter
    wait_for_re "[0-9]+ offers" 20 && settle && shoot offers "rentop: offers" || ok=1
    keys c; wait_for "Rent offer" 10 && type_text "pytorch/pytorch:latest" &&
        keys Tab Tab Tab && type_text "train-llama" && settle &&
        shoot create-form "rentop: the create-instance form" || ok=1
    close_form
    replace_shot || ok=1
    keys 7; wait_for "shared_datasets" 20 && settle &&
        shoot volumes "rentop: volumes, local and network" || ok=1
    keys 5; wait_for "email verified" 20 && keys ']' && wait_for "HF_TOKEN" 20 && settle &&
        shoot account "rentop: account view, env vars" || ok=1
    cmd "billing 14"; wait_for "last 14 days: spent" 60 && settle &&
        shoot billing "rentop: billing, the daily spend over 14 days" || ok=1
    # no method yet: the code sent to the account's email authorizes the first
    keys t; wait_for "Two-factor authentication" 10 && sleep 2 && keys a &&
        wait_for_flat "Verification code sent to" 20 &&
        type_text "$(sim_get /__sim/codes | sed -n 's/.*"email": *"\([0-9]*\)".*/\1/p')" && keys Enter &&
        wait_for "Secret:" 20 && settle &&
        shoot tfa-qr "rentop: 2FA set-up, the QR code of the simulator's throwaway secret" || ok=1
    keys Escape; wait_gone "Secret:" 10; keys Escape
    keys 1; wait_for "$first" 10
    rentop_quit || ok=1
else
    screen_dump; ok=1
fi
tm kill-server >/dev/null 2>&1
# the light theme on a light terminal, as its users run it
PAGE_BG='#fafafa' PAGE_FG='#1e1e1e'
if run_set --theme light; then
    settle; shoot light-theme "rentop: light theme" || ok=1
    rentop_quit || ok=1
else
    screen_dump; ok=1
fi
exit $ok
