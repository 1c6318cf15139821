#!/bin/sh
# mk/demo.sh BUILD_DIR: `make demo`.  Starts a seeded rentop-sim on a free
# loopback port, prints how to reach and drive it, and runs the dashboard
# against it in the foreground.  The simulator's API key reaches rentop
# through its environment only (never argv), and rentop runs with a
# throw-away HOME so the user's real ~/.config/vastai key files are neither
# read nor written (their ~/.config/rentop/config is still honoured).  On
# any exit, Ctrl-C included, the simulator is stopped and the temp files go.
# Without a terminal on stdin (CI) it does not start the UI: it shows that
# the simulator answers with `rentop --dump instances` and exits.
set -u
O=${1:-build/release}
SIM=$O/rentop-sim
RENTOP=$O/rentop
for f in "$SIM" "$RENTOP"; do
    [ -x "$f" ] || { echo "demo: $f is missing; run 'make' first" >&2; exit 1; }
done

user_config=${XDG_CONFIG_HOME:-$HOME/.config}/rentop/config
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rentop-demo.XXXXXX")
sim_pid=

cleanup() {
    if [ -n "$sim_pid" ]; then
        kill "$sim_pid" 2>/dev/null
        wait "$sim_pid" 2>/dev/null
        sim_pid=
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

"$SIM" --port 0 --seed 1 --quiet >"$tmp/sim.out" 2>"$tmp/sim.err" &
sim_pid=$!

# Wait (at most 20 s) for the URL and the full-access key.
url='' key='' i=0
while [ -z "$url" ] || [ -z "$key" ]; do
    url=$(sed -n 's/^rentop-sim listening on \(http[^ ]*\).*/\1/p' "$tmp/sim.out" | head -n 1)
    key=$(sed -n 's/^full-access key: *//p' "$tmp/sim.out" | head -n 1)
    if ! kill -0 "$sim_pid" 2>/dev/null; then
        echo "demo: rentop-sim exited:" >&2; cat "$tmp/sim.err" >&2
        sim_pid=; exit 1
    fi
    i=$((i + 1))
    if [ $i -gt 200 ]; then echo "demo: rentop-sim did not start" >&2; exit 1; fi
    sleep 0.1
done
url=${url%/}

mkdir -p "$tmp/home"
set -- --url "$url"
[ -f "$user_config" ] && set -- "$@" --config "$user_config"

cat <<EOF
rentop demo: a simulated account (seed 1) at $url
  drive the simulator from another terminal while the dashboard runs:
    curl -s -X POST $url/__sim/fault -d '{"path":"/api/v1/instances/","kind":"hang","count":3}'
    curl -s -X POST $url/__sim/instance -d '{"id":ID,"actual_status":"offline"}'
    curl -s $url/__sim/state | head -c 600
  keys: ? help, j/k move, Enter details, / filter, : commands, q quit
EOF

unset VAST_URL
if [ -t 0 ] && [ -t 1 ]; then
    printf 'starting rentop...\n'
    sleep 1
    HOME=$tmp/home VAST_API_KEY=$key "$RENTOP" "$@"
    rc=$?
    echo "rentop exited with status $rc; simulator stopped."
    exit "$rc"
fi

echo "no terminal on stdin: not starting the dashboard; the simulator answers:"
HOME=$tmp/home VAST_API_KEY=$key "$RENTOP" "$@" --dump instances
rc=$?
[ "$rc" -eq 0 ] && echo "demo: simulator and rentop --dump work (run 'make demo' in a terminal for the dashboard)"
exit "$rc"
