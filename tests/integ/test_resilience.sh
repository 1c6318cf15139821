#!/bin/sh
# test_resilience.sh: `rentop --dump` when things go wrong: 429s and 5xx
# retried with backoff until the dump succeeds, pacing that keeps the v1
# list under its rate limit, a refused key (exit 3, no key in the message),
# plain http to a non-loopback host refused, a hung server timing out
# (exit 4), malformed, truncated and oversize answers (exit 4), each kind
# of answer refused past its own bound (a template list at 8 MB).
. "$(dirname "$0")/corenet_lib.sh"

start_sim --seed 21 --instances 100 --endpoints 0 --rate-limits off || { notok "simulator starts"; exit 1; }
dump() { "$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 "$@"; }

# 429 three times on the list, then success: the first page's first attempt
# and the highest-id probe sent beside it take two, the page's retry the
# third; the page's third attempt is answered, and the limits being on, the
# rest is read in sequence (4 pages answered)
fault /api/v1/instances/ 429 3
dump --dump instances --json --log "$T/a.log" >"$T/a.json" 2>"$T/a.err"; rc=$?
n429=$(grep -c 'instances/ -> 429' "$T/a.log")
n200=$(grep -c 'instances/ -> 200' "$T/a.log")
if [ $rc -eq 0 ] && [ "$(records "$T/a.json")" -eq 100 ] && [ "$n429" -eq 3 ] && [ "$n200" -eq 4 ] &&
   [ "$(grep -c 'retry' "$T/a.log")" -eq 2 ]; then
    ok "429s are retried with backoff and the dump succeeds"
else
    notok "429s are retried with backoff and the dump succeeds" "rc=$rc 429s=$n429 200s=$n200 retries=$(grep -c 'retry' "$T/a.log") (want 3, 4 and 2)" "$(head -c 300 "$T/a.err")"
fi

# 500, 502, 503 in a row
fault /api/v1/instances/ 500 1; fault /api/v1/instances/ 502 1; fault /api/v1/instances/ 503 1
dump --dump instances --json >"$T/b.json" 2>"$T/b.err"; rc=$?
if [ $rc -eq 0 ] && [ "$(records "$T/b.json")" -eq 100 ]; then
    ok "5xx answers are retried and the dump succeeds"
else
    notok "5xx answers are retried and the dump succeeds" "rc=$rc" "$(head -c 300 "$T/b.err")"
fi

# a server that keeps failing: exit 4 with the service's status
fault /api/v0/users/current/ 503 50
dump --dump user >"$T/c.out" 2>"$T/c.err"; rc=$?
if [ $rc -eq 4 ] && grep -q '503' "$T/c.err"; then
    ok "a persistent 503 exits 4 with the status"
else
    notok "a persistent 503 exits 4 with the status" "rc=$rc" "$(cat "$T/c.err")"
fi
curl -fsS -X POST "$SIM_URL/__sim/reset" -d '{}' >/dev/null 2>&1 || true

# a refused key
printf 'not-a-real-key-4f1c2b\n' >"$T/badkey"; chmod 600 "$T/badkey"
"$RENTOP" --url "$SIM_URL" --api-key-file "$T/badkey" --dump instances >"$T/d.out" 2>"$T/d.err"; rc=$?
if [ $rc -eq 3 ] && grep -qi 'key' "$T/d.err" && ! grep -q 'not-a-real-key-4f1c2b' "$T/d.err" "$T/d.out"; then
    ok "a bad key exits 3 with a clear message and no key in it"
else
    notok "a bad key exits 3 with a clear message and no key in it" "rc=$rc" "$(cat "$T/d.err")"
fi

# a group-readable key file draws a warning (and still works)
cp "$KEYFILE" "$T/loosekey"; chmod 644 "$T/loosekey"
"$RENTOP" --url "$SIM_URL" --api-key-file "$T/loosekey" --dump user >/dev/null 2>"$T/e.err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'readable by group or others' "$T/e.err"; then
    ok "a key file readable by others draws a warning"
else
    notok "a key file readable by others draws a warning" "rc=$rc" "$(cat "$T/e.err")"
fi

# plain http to a non-loopback host is refused before anything is sent
"$RENTOP" --url http://example.com --api-key-file "$KEYFILE" --dump instances >"$T/f.out" 2>"$T/f.err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'refusing plain http://' "$T/f.err"; then
    ok "http:// to a non-loopback host is refused"
else
    notok "http:// to a non-loopback host is refused" "rc=$rc" "$(cat "$T/f.err")"
fi

# a hung server times out: exit 4
fault /api/v0/users/current/ hang 1 3000
dump --timeout 1 --connect-timeout 1 --dump user >"$T/g.out" 2>"$T/g.err"; rc=$?
if [ $rc -eq 4 ] && grep -qi 'time' "$T/g.err"; then
    ok "a hung server times out with exit 4"
else
    notok "a hung server times out with exit 4" "rc=$rc" "$(cat "$T/g.err")"
fi
curl -fsS -X POST "$SIM_URL/__sim/reset" -d '{}' >/dev/null 2>&1 || true

# nothing listening: exit 4
"$RENTOP" --url http://127.0.0.1:1 --api-key-file "$KEYFILE" --dump user >/dev/null 2>"$T/h.err"; rc=$?
if [ $rc -eq 4 ]; then ok "no server exits 4"; else notok "no server exits 4" "rc=$rc" "$(cat "$T/h.err")"; fi

# malformed and truncated answers
fault /api/v0/users/current/ malformed 1
dump --dump user >/dev/null 2>"$T/i.err"; rc=$?
if [ $rc -eq 4 ]; then ok "a malformed answer exits 4"; else notok "a malformed answer exits 4" "rc=$rc" "$(cat "$T/i.err")"; fi
# a body cut short is a transport failure: retried once, then it succeeds
fault /api/v0/users/current/ truncated 1
dump --dump user --log "$T/j.log" >/dev/null 2>"$T/j.err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'current/ -> 0 curl:' "$T/j.log"; then
    ok "a truncated answer is retried"
else
    notok "a truncated answer is retried" "rc=$rc" "$(cat "$T/j.err" "$T/j.log")"
fi
fault /api/v0/users/current/ truncated 20
dump --dump user >/dev/null 2>"$T/j2.err"; rc=$?
if [ $rc -eq 4 ]; then ok "answers always truncated exit 4"; else notok "answers always truncated exit 4" "rc=$rc" "$(cat "$T/j2.err")"; fi
curl -fsS -X POST "$SIM_URL/__sim/reset" -d '{}' >/dev/null 2>&1 || true

# an answer over the 64 MB cap is cut off
curl -fsS -X POST -H 'Content-Type: application/json' \
    -d '{"path":"/api/v0/users/current/","kind":"huge","count":1,"mb":80}' "$SIM_URL/__sim/fault" >/dev/null
dump --dump user >/dev/null 2>"$T/k.err"; rc=$?
if [ $rc -eq 4 ] && grep -q 'too large' "$T/k.err"; then
    ok "an oversize answer is refused (response too large)"
else
    notok "an oversize answer is refused (response too large)" "rc=$rc" "$(cat "$T/k.err")"
fi

# every kind of answer has its own bound: a 40 MB template list (under the
# 64 MB transport cap) is refused at 8 MB, and the process never holds it
curl -fsS -X POST -H 'Content-Type: application/json' \
    -d '{"path":"/api/v0/template/","kind":"huge","count":1,"mb":40}' "$SIM_URL/__sim/fault" >/dev/null
peak=$(python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:-1], stdout=subprocess.DEVNULL, stderr=open(sys.argv[-1] + ".err", "w"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
' "$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --page-rate 0 --dump templates "$T/tpl")
rc=${peak%% *}; mb=${peak#* }
if [ "$rc" -eq 4 ] && grep -q 'too large (over 8 MB)' "$T/tpl.err" && [ "$mb" -lt 40 ]; then
    ok "a template list over 8 MB is refused, peak memory ${mb} MB"
else
    notok "a template list over 8 MB is refused, peak memory under 40 MB" "rc=$rc peak=${mb} MB" "$(cat "$T/tpl.err")"
fi

# pacing: with the simulator's rate limits on, the default pacing (1 page/s)
# fetches 4 pages without a single 429 retry
start_sim --seed 22 --instances 100 --endpoints 0 --rate-limits on || { notok "simulator starts (rate limits on)"; exit 1; }
before=$(requests /api/v1/instances/)
"$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump instances --json --log "$T/paced.log" >"$T/l.json" 2>"$T/l.err"; rc=$?
after=$(requests /api/v1/instances/)
if [ $rc -eq 0 ] && [ "$(records "$T/l.json")" -eq 100 ] && [ $((after - before)) -eq 4 ] && ! grep -q ' 429 ' "$T/paced.log"; then
    ok "paged fetch stays under the v1 rate limit (no 429)"
else
    notok "paged fetch stays under the v1 rate limit (no 429)" "rc=$rc requests=$((after - before))" "$(grep -c ' 429' "$T/paced.log") 429s"
fi
if ! grep -q "$SIM_KEY" "$T/paced.log"; then ok "the debug log never holds the key"; else notok "the debug log never holds the key"; fi

finish
