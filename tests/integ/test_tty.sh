#!/bin/sh
# test_tty.sh: never a runaway dashboard.  Without --dump and with standard
# input that is not a terminal (cron, a unit, `</dev/null`), rentop refuses
# at once with status 2; on a terminal that hangs up (end of file or EIO on
# a pty whose master closed, with no SIGHUP: the pty is not the controlling
# terminal) it restores what it can and exits with status 129 instead of
# spinning; with TERM=dumb it refuses with a message instead of a blank
# screen.  The pty cases run under python3's pty module.
. "$(dirname "$0")/corenet_lib.sh"

case "$RENTOP" in *asan*|*tsan*) SCALE=3 ;; *) SCALE=1 ;; esac
start_sim --seed 2 --instances 5 --endpoints 0 --rate-limits off || { notok "simulator starts"; exit 1; }

ms() { date +%s%3N; }

t0=$(ms)
timeout 10 "$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" </dev/null >"$T/out" 2>"$T/err"
rc=$?
el=$(( $(ms) - t0 ))
if [ $rc -eq 2 ] && grep -q 'standard input is not a terminal; use --dump for scripts' "$T/err" &&
    [ "$el" -lt $((1000 * SCALE)) ]; then
    ok "</dev/null without --dump: exit 2 with the reason, in ${el} ms"
else
    notok "</dev/null without --dump: exit 2 with the reason within a second" "rc=$rc after ${el} ms" "$(head -c 300 "$T/err")"
fi

# run_pty TERM HANGUP_AFTER_S: run rentop on a pty (not its controlling
# terminal); after HANGUP_AFTER_S seconds close the master.  Prints
# "rc=N secs=S cpu=C" (cpu: user+system seconds rentop used).
run_pty() {
    python3 - "$RENTOP" "$SIM_URL" "$KEYFILE" "$1" "$2" "$SCALE" <<'EOF'
import os, sys, time, subprocess, select
rentop, url, key, term, after, scale = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
m, s = os.openpty()
os.set_blocking(m, False)
env = dict(os.environ, TERM=term, LANG="C.UTF-8", LC_ALL="C.UTF-8")
env.pop("VAST_API_KEY", None)
p = subprocess.Popen([rentop, "--url", url, "--api-key-file", key], stdin=s, stdout=s,
                     stderr=subprocess.PIPE, env=env, start_new_session=True)
os.close(s)
t0 = time.time()
seen = b""
while time.time() - t0 < after and p.poll() is None:
    r, _, _ = select.select([m], [], [], 0.1)
    if r:
        try:
            seen += os.read(m, 65536)
        except OSError:
            break
os.close(m)   # the terminal goes away: EOF/EIO on the slave, no SIGHUP
t1 = time.time()
try:
    rc = p.wait(timeout=10 * scale)
except subprocess.TimeoutExpired:
    p.kill(); rc = "timeout"
secs = time.time() - t1
err = p.stderr.read().decode(errors="replace")
import resource
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print("rc=%s secs=%.2f cpu=%.2f drew=%d" % (rc, secs, usage.ru_utime + usage.ru_stime, len(seen)))
sys.stderr.write(err)
EOF
}

res=$(run_pty xterm-256color 2 2>"$T/pty.err")
note=$(head -c 300 "$T/pty.err")
case $res in
rc=129\ *)
    secs=$(echo "$res" | sed 's/.*secs=\([0-9.]*\).*/\1/')
    cpu=$(echo "$res" | sed 's/.*cpu=\([0-9.]*\).*/\1/')
    if awk "BEGIN { exit !($secs < 2 * $SCALE && $cpu < 3 * $SCALE) }"; then
        ok "a terminal that hangs up (EOF/EIO, no SIGHUP) ends rentop with 129 ($res)"
    else
        notok "a terminal that hangs up ends rentop promptly without spinning" "$res" "$note"
    fi ;;
*) notok "a terminal that hangs up (EOF/EIO, no SIGHUP) ends rentop with 129" "$res" "$note" ;;
esac

res=$(run_pty dumb 2 2>"$T/dumb.err")
if echo "$res" | grep -q '^rc=2 ' && grep -q 'cannot address the cursor (TERM=dumb)' "$T/dumb.err"; then
    ok "TERM=dumb is refused with a message and status 2"
else
    notok "TERM=dumb is refused with a message and status 2" "$res" "$(head -c 300 "$T/dumb.err")"
fi

finish
