#!/bin/sh
# tests/bench/attention.sh BUILD_DIR N MODE: how soon a failure shows on the
# dashboard at fleet scale, against rentop-sim at every default (rate limits
# on, --instances N, seed 1; about 12 % of the fleet held in failure states:
# the seeded 10,000 keep 1,200, smaller fleets get random instances forced
# offline up to 12 %).  Once rentop holds every failure (its header's
# "N failed" is the simulator's count) it prints the list requests of 30 s
# and the sweep pages among them (the rest is attention), then
#   MODE offline: five times, a high id not failed forced offline at a
#     random point of the cycle, the table filtered by its id: the ms until
#     "offline" shows;
#   MODE swap: at the same moment a held offline instance (the middle one)
#     recovers and a running or stopped one (the middle one) goes offline:
#     the ms until the new one shows offline, then until the recovered one
#     shows its new state (the departure).
# SIMARGS: more simulator flags (e.g. "--url-max 8192" for the 414 path).
# Lines "# RESULT ..." are the figures.  Takes 3 to 5 minutes at 10,000.
set -u
O=$(cd "${1:?usage: tests/bench/attention.sh BUILD_DIR N offline|swap}" && pwd)
N=${2:?instances}
MODE=${3:?offline or swap}
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
: "${RENTOP:=$O/rentop}" "${RENTOP_SIM:=$O/rentop-sim}"
BUILD_DIR=$O E2E_SCALE=1
export BUILD_DIR RENTOP RENTOP_SIM SRCDIR E2E_SCALE
. "$SRCDIR/tests/e2e/lib.sh"
sim_start --seed 1 --instances "$N" --endpoints 0 --quiet ${SIMARGS:-} || { echo "sim failed"; exit 1; }
FEXPR="sum(1 for x in insts if x['actual_status'] in ('offline','unknown') or (x['actual_status'] in ('exited','created') and x['intended_status'] != 'stopped'))"
have=$(sim_state "$FEXPR")
want=$(( N * 12 / 100 ))
if [ "$have" -lt "$want" ]; then
  ids=$(sim_state "' '.join(str(x['id']) for x in sorted(insts, key=lambda x: x['id'])[1:-1] if x['actual_status']=='running')" | tr ' ' '\n' | awk -v k=$((want - have)) 'NR % 3 == 0 && c < k {print; c++}')
  for i in $ids; do sim_post /__sim/instance "{\"id\":$i,\"actual_status\":\"offline\"}"; done
fi
note "N=$N failures in sim: $(sim_state "$FEXPR") (asked ~$want)"
failed() { screen | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p' | head -n 1; }
rentop_start -s 160x40 || exit 1
t0=$(date +%s)
while :; do
  w=$(sim_state "$FEXPR")
  [ "$(failed)" = "$w" ] && break
  [ $(( $(date +%s) - t0 )) -lt 900 ] || { note "never held all ($(failed) vs $w)"; break; }
  sleep 2
done
note "rentop holds $(failed) failures after $(( $(date +%s) - t0 )) s; load $(cat /proc/loadavg)"
loaded() { screen | sed -n "s/.*Instances \([0-9][0-9]*\)\/$N.*/\1/p" | head -n 1; }
la=$(loaded)
a=$(sim_state "d['rate_limits']['instances_list']['allowed']"); ta=$(date +%s)
sleep 30
b=$(sim_state "d['rate_limits']['instances_list']['allowed']"); tb=$(date +%s)
lb=$(loaded)
note "list requests: $((b - a)) in $((tb - ta)) s; loaded $la -> $lb (sweep pages $(( (${lb:-0} - ${la:-0}) / 25 )), the rest attention); 414s $(sim_state "d.get('refused_414')")"
if [ "$MODE" = offline ]; then
  # five trials, each a high id not yet failed, at a random point of the cycle
  ids=$(sim_state "' '.join(str(i) for i in sorted((x['id'] for x in insts if x['actual_status'] not in ('offline','unknown')), reverse=True)[:5])")
  for id in $ids; do
    sleep "$(awk -v s=$(date +%N) 'BEGIN{srand(s); printf "%.1f", rand()*5}')"
    sim_post /__sim/instance "{\"id\":$id,\"actual_status\":\"offline\"}"
    t=$(date +%s%N)
    select_row "$id" >/dev/null
    wait_for_re "^ *$id .* offline " 120 && note "RESULT N=$N offline $id shown after $(( ($(date +%s%N) - t) / 1000000 )) ms" || note "RESULT N=$N offline $id not shown in 120 s"
    keys Escape
  done
else
  gone=$(sim_state "sorted(x['id'] for x in insts if x['actual_status'] == 'offline')[len([1 for x in insts if x['actual_status']=='offline'])//2]")
  new=$(sim_state "(lambda v: v[len(v)//2])(sorted(x['id'] for x in insts if x['actual_status'] == 'running' or (x['actual_status'] == 'exited' and x['intended_status'] == 'stopped')))")
  sim_post /__sim/instance "{\"id\":$gone,\"actual_status\":\"running\"}"
  sim_post /__sim/instance "{\"id\":$new,\"actual_status\":\"offline\"}"
  t=$(date +%s%N)
  select_row "$new" >/dev/null
  wait_for_re "^ *$new .* offline " 180 && note "RESULT N=$N swap: $gone recovered, $new offline shown after $(( ($(date +%s%N) - t) / 1000000 )) ms" || note "RESULT N=$N swap: $new not shown offline in 180 s"
  keys Escape; sleep 0.5
  select_row "$gone" >/dev/null
  wait_for_re "^ *$gone .* (running|stopped|exited) " 120 && note "RESULT departure $gone shown in its new state after $(( ($(date +%s%N) - t) / 1000000 )) ms" || note "RESULT departure $gone not shown in its new state after 120+ s"
fi
note "load $(cat /proc/loadavg)"
e2e_done 2>/dev/null
