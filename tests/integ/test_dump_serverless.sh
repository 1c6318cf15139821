#!/bin/sh
# test_dump_serverless.sh: `rentop --dump endpoints` and `--dump
# workergroups` (plain and --json) against rentop-sim: every endpoint and
# workergroup with the values of the simulator's state, each with its
# endpoint's current workers and load from get_endpoint_workers (the
# all-ERROR endpoint shows its workers in ERROR), no api_key anywhere, and a
# failing worker fetch shown as "?" and said on stderr without failing the
# dump.
. "$(dirname "$0")/corenet_lib.sh"

start_sim --seed 3 --endpoints 4 --rate-limits off || { notok "simulator starts"; exit 1; }

curl -fsS "$SIM_URL/__sim/state" >"$T/state.json"
# st EXPR: a Python expression over the simulator's state (d).
st() {
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); v = eval(sys.argv[2]); print("\n".join(map(str, v)) if isinstance(v, list) else v)' "$T/state.json" "$1"
}

dump() {
    what=$1
    shift
    "$RENTOP" --url "$SIM_URL" --api-key-file "$KEYFILE" --dump "$what" "$@" >"$T/out" 2>"$T/err"
}

# ---- endpoints, plain ------------------------------------------------------------
dump endpoints
rc=$?
n=$(st "len(d['endpoints'])")
hdr='^ID  *NAME  *STATE  *MIN_LOAD  *TARGET_UTIL  *COLD_MULT  *COLD_WORKERS  *MAX_WORKERS  *LOAD  *WORKERS$'
if [ $rc -eq 0 ] && [ "$(wc -l <"$T/out")" -eq $((n + 1)) ] && head -n 1 "$T/out" | grep -q "$hdr"; then
    ok "dump endpoints: a header and $n rows"
else
    notok "dump endpoints: a header and $n rows" "rc=$rc" "$(head -n 3 "$T/out" "$T/err")"
fi
bad=
for i in $(seq 0 $((n - 1))); do
    want=$(st "'%s  *%s  *%s  *%g  *%g  *%g  *%d  *%d  ' % tuple(d['endpoints'][$i][k] for k in ('id','endpoint_name','endpoint_state','min_load','target_util','cold_mult','cold_workers','max_workers'))")
    grep -q "^$want" "$T/out" || bad="$bad [$want]"
done
if [ -z "$bad" ]; then
    ok "dump endpoints: every endpoint's fields as the simulator holds them"
else
    notok "dump endpoints: every endpoint's fields as the simulator holds them" "missing:$bad" "$(cat "$T/out")"
fi
# whisper-asr (seeded): every worker in ERROR; cold_workers + 2 workers
cw=$(st "[e['cold_workers'] for e in d['endpoints'] if e['endpoint_name'] == 'whisper-asr'][0]")
l=$(grep " whisper-asr " "$T/out")
if echo "$l" | grep -qE "0\.0/0\.0 +$((cw + 2)) \(0 ready $((cw + 2)) error\)$"; then
    ok "dump endpoints: current workers and load from get_endpoint_workers"
else
    notok "dump endpoints: current workers and load from get_endpoint_workers" "$l"
fi
if [ "$(requests /get_endpoint_workers/)" -eq "$n" ]; then
    ok "dump endpoints: one worker fetch per endpoint"
else
    notok "dump endpoints: one worker fetch per endpoint" "$(requests /get_endpoint_workers/)"
fi

# ---- endpoints, JSON ------------------------------------------------------------
dump endpoints --json
rc=$?
checks=$(python3 - "$T/out" "$T/state.json" <<'EOF'
import json, sys
out = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
errs = []
if len(out) != len(d["endpoints"]):
    errs.append("count %d" % len(out))
for e in d["endpoints"]:
    r = [x for x in out if x["id"] == e["id"]]
    if not r:
        errs.append("no %s" % e["id"]); continue
    r = r[0]
    if "api_key" in r: errs.append("api_key in %s" % e["id"])
    w = r.get("workers")
    if not isinstance(w, dict): errs.append("no workers on %s" % e["id"]); continue
    want = 0 if e["endpoint_state"] == "stopped" else e["cold_workers"] + 2
    if w["total"] != want or sum(w[k] for k in ("running", "loading", "idle", "error", "other")) != want \
            or sum(w["states"].values()) != want or w["ready"] != w["states"].get("IDLE", 0) + w["states"].get("RUNNING", 0):
        errs.append("workers of %s: %s" % (e["id"], w))
    for k in ("min_load", "target_util", "cold_workers", "max_workers", "endpoint_state"):
        if r.get(k) != e.get(k): errs.append("%s of %s" % (k, e["id"]))
print(" ".join(errs) or "fine")
EOF
)
keys=$(st "' '.join(e['api_key'] for e in d['endpoints'])")
leak=
for k in $keys "$SIM_KEY"; do grep -qF -- "$k" "$T/out" "$T/err" && leak=1; done
if [ $rc -eq 0 ] && [ "$checks" = fine ] && [ -z "$leak" ]; then
    ok "dump endpoints --json: the records with their workers, no api_key"
else
    notok "dump endpoints --json: the records with their workers, no api_key" "rc=$rc $checks leak=$leak"
fi

# ---- workergroups ---------------------------------------------------------------
dump workergroups
rc=$?
nw=$(st "len(d['workergroups'])")
hdr='^ID  *ENDPOINT  *ENDPOINT_ID  *TEMPLATE_HASH  *MIN_LOAD  *TARGET_UTIL  *COLD_MULT  *TEST_WORKERS  *GPU_RAM  *EP_WORKERS  *EP_LOAD  *LAUNCH_ARGS  *QUERY$'
bad=
for i in $(seq 0 $((nw - 1))); do
    want=$(st "'%s  *%s  *%s  *%s  *%g  *%g  *%g  *%d  *%g  *[0-9]+ \\\\([0-9]+ ready( [0-9]+ [a-z_]+)*\\\\)  *[0-9.]+/[0-9.]+  ' % tuple(d['workergroups'][$i][k] for k in ('id','endpoint_name','endpoint_id','template_hash','min_load','target_util','cold_mult','test_workers','gpu_ram'))")
    grep -qE "^$want" "$T/out" || bad="$bad [$want]"
done
if [ $rc -eq 0 ] && [ "$(wc -l <"$T/out")" -eq $((nw + 1)) ] && head -n 1 "$T/out" | grep -q "$hdr" && [ -z "$bad" ]; then
    ok "dump workergroups: every workergroup with its endpoint's workers and load"
else
    notok "dump workergroups: every workergroup with its endpoint's workers and load" "rc=$rc missing:$bad" "$(cat "$T/out" "$T/err")"
fi
dump workergroups --json
rc=$?
checks=$(python3 - "$T/out" <<'EOF'
import json, sys
out = json.load(open(sys.argv[1]))
errs = [str(r.get("id")) for r in out if "api_key" in r or not isinstance(r.get("endpoint_workers"), dict)
        or r["endpoint_workers"]["total"] < 1]
print(" ".join(errs) or "fine")
EOF
)
if [ $rc -eq 0 ] && [ "$checks" = fine ]; then
    ok "dump workergroups --json: endpoint_workers on each record, no api_key"
else
    notok "dump workergroups --json: endpoint_workers on each record, no api_key" "rc=$rc bad: $checks"
fi

# ---- a failing worker fetch: "?" and a line on stderr, the dump still succeeds --
fault /get_endpoint_workers 500 100
dump endpoints
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '  ?  *?$' "$T/out")" -eq "$n" ] && grep -q "workers of endpoint" "$T/err"; then
    ok "dump endpoints: a failing worker fetch shows ? and is said on stderr"
else
    notok "dump endpoints: a failing worker fetch shows ? and is said on stderr" "rc=$rc" "$(cat "$T/out" "$T/err" | head -n 8)"
fi

finish
