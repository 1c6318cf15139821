#!/bin/sh
# test_launch.sh: `:launch`, the CLI's launch instance in one line (issue
# 23): the search it makes, the confirmation naming the offer and its
# price, Rent sending the create exactly once (the new instance selected in
# the table), Esc sending nothing, a lost answer not resent, bad flags and
# an empty search explained with nothing sent, --read-only refusing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/create_lib.sh"

sim_start --seed 1 --quiet --rate-limits off --speed 20 || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 200x45 || { echo "not ok - rentop starts"; exit 1; }

# The text inside the "Confirm billing" box, its lines joined (what is
# drawn beside the box left out).
dialog_text() {
    screen | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
out = []
for i, l in enumerate(lines):
    if "Confirm billing" in l and "\u250c" in l:
        a = l.index("\u250c"); b = l.index("\u2510", a)
        for m in lines[i + 1:]:
            if len(m) <= a or m[a] == "\u2514":
                break
            out.append(m[a + 1:b].strip())
        break
print(" ".join(x for x in out if x))'
}
searches() { sim_state "count('/api/v0/bundles')"; }
LAUNCH="launch -g RTX_4090 -n 1 --image pytorch/pytorch"

t_bad_flags() {
    wait_for "Instances" 30 || return 1
    before=$(searches); cb=$(creates)
    cmd "launch -g RTX_4090 -n 3 --image pytorch/pytorch"
    wait_for "launch: -n: the number of GPUs is one of 1, 2, 4, 8, 12, 14; usage: :launch -g GPU_NAME" 10 || return 1
    cmd "launch -g RTX_4090 -n 1"
    wait_for "launch: an image (-i) or a template (--template HASH) is required" 10 || return 1
    cmd "launch -g RTX_4090 -n 1 -i img --gpus 2"
    wait_for "launch: unknown flag --gpus" 10 || return 1
    cmd "launch"
    wait_for "launch: -g GPU_NAME and -n NUM_GPUS are required" 10 || return 1
    sleep 1
    [ "$(searches)" = "$before" ] || { fail "a search was sent for bad flags"; return 1; }
    [ "$(creates)" = "$cb" ] || { fail "a create was sent for bad flags"; return 1; }
}

t_no_offer() {
    cb=$(creates)
    cmd "launch -g NO_SUCH_GPU -n 1 -i pytorch/pytorch"
    wait_for "launch: no offer matches gpu_name=NO_SUCH_GPU num_gpus=1 disk_space>=16 -o score- --storage 16 (nothing rented)" 30 || return 1
    not_on_screen "Confirm billing" || return 1
    [ "$(creates)" = "$cb" ] || { fail "a create was sent with no offer"; return 1; }
}

# :launch, then its confirmation: the offer named with its price
confirmation() {
    keys Escape; sleep 0.2
    launch_line "$1"
}
# the same without the Esc first (which would stop a replacement itself)
launch_line() {
    keys :; type_text "$1"; keys Enter
    wait_for "Confirm billing" 30 || return 1
    sleep 0.5
    note "$(dialog_text)"
    flat=$(dialog_text)
    echo "$flat" | grep -qE "Rent offer [0-9]+ \(1x RTX 4090\) for \\\$[0-9.]+/h: \\\$[0-9.]+/h GPU \+ \\\$[0-9.]+/h storage of 16 GB" ||
        { fail "the confirmation does not name the offer and its price"; screen_dump; return 1; }
    echo "$flat" | grep -qE "^Launch 1x RTX_4090: the first of [0-9]+ offers? \(-o score-\): machine [0-9]+ in [A-Za-z -]+, [A-Z]{2}, reliability [0-9.]+%" ||
        { fail "the confirmation does not name the machine and its location"; return 1; }
}

t_esc() {
    cb=$(creates)
    confirmation "$LAUNCH --label e2e-esc" || return 1
    keys Escape
    wait_for "not rented: nothing was sent" 10 || return 1
    not_on_screen "Confirm billing" || return 1
    not_on_screen "Rent offer" || return 1
    sleep 2
    [ "$(creates)" = "$cb" ] || { fail "Esc sent a create"; return 1; }
}

t_rent() {
    cb=$(creates)
    confirmation "$LAUNCH --label e2e-launch" || return 1
    offer=$(dialog_text | sed -n 's/.*Rent offer \([0-9]*\) (1x.*/\1/p' | head -n 1)
    keys Tab Enter
    sim_expect "len([x for x in insts if x.get('label') == 'e2e-launch'])" 1 || return 1
    sleep 2
    [ "$(creates)" = "$((cb + 1))" ] || { fail "$(( $(creates) - cb )) creates sent"; return 1; }
    sim_expect "[(x.get('image_uuid'), float(x.get('disk_space') or 0)) for x in insts if x.get('label') == 'e2e-launch']" \
        '[["pytorch/pytorch", 16.0]]' 5 || { fail "not the image and disk of the flags"; return 1; }
    [ -n "$offer" ] && [ "$(sim_state "count('/api/v0/asks/$offer/')")" = 1 ] ||
        { fail "offer $offer (the one confirmed) was not the one rented"; return 1; }
    new=$(sim_state "[x['id'] for x in insts if x.get('label') == 'e2e-launch'][0]")
    wait_for_re "$new +e2e-launch" 30 || return 1   # its row in the table, selected
}

t_lost() {
    sim_fault /api/v0/asks truncated 1 || return 1
    cb=$(creates)
    confirmation "$LAUNCH --label e2e-lost" || return 1
    keys Tab Enter
    sim_expect "len([x for x in insts if x.get('label') == 'e2e-lost'])" 1 || return 1
    keys 2
    wait_for_re "create of offer [0-9]+ whose answer was lost" 30 || { screen_dump; return 1; }
    sleep 3
    [ "$(creates)" = "$((cb + 1))" ] || { fail "$(( $(creates) - cb )) creates for a lost answer"; return 1; }
    not_on_screen "Confirm billing" || return 1
    not_on_screen "Rent offer" || return 1
}

# :launch during O (offers like a failed instance): what it rents replaces
# nothing, so the replacement stops (no destroy of that one offered later).
t_stops_replace() {
    keys 1; sleep 0.3; keys Escape; sleep 0.3
    crashed=$(sim_state "[x['id'] for x in insts if x.get('actual_status') == 'exited' and x.get('intended_status') == 'running' and x.get('gpu_name') == 'Tesla V100'][0]")
    keys / ; type_text "$crashed"; keys Enter
    wait_for "$crashed" 10 || return 1
    keys O
    wait_for "REPLACE $crashed (c rents" 10 || return 1
    cb=$(creates)
    launch_line "$LAUNCH --label e2e-norepl" || return 1
    not_on_screen "REPLACE $crashed" || return 1
    keys Escape
    wait_for "not rented: nothing was sent" 10 || return 1
    not_on_screen "REPLACE $crashed" || return 1
    [ "$(creates)" = "$cb" ] || { fail "a create was sent"; return 1; }
}

# the service refuses the create: the form it was made from is given back
# with the service's words (image, disk, label as the flags gave them)
t_refused() {
    sim_post /__sim/set '{"what":"user","field":"credit","value":0.001}' || return 1
    cb=$(creates)
    confirmation "$LAUNCH --label e2e-refused" || return 1
    keys Tab Enter
    wait_for_re "[Ii]nsufficient" 20 || return 1
    on_screen "Rent offer" || { fail "the form closed"; return 1; }
    on_screen "e2e-refused" || { fail "the form lost the flags"; return 1; }
    on_screen "pytorch/pytorch" || { fail "the form lost the image"; return 1; }
    [ "$(creates)" = "$((cb + 1))" ] || { fail "$(( $(creates) - cb )) creates sent"; return 1; }
    sim_post /__sim/set '{"what":"user","field":"credit","value":250}' || return 1
    keys Escape
    wait_gone "Rent offer" 10 || return 1
    sleep 0.5
}

# --template HASH: the create carries the template (its image, no -i)
t_template() {
    h=$(sim_state "d['templates'][0]['hash_id']")
    img=$(sim_state "d['templates'][0]['image']")
    [ -n "$h" ] && [ "$h" != None ] || { fail "no template in the simulator"; return 1; }
    cb=$(creates)
    confirmation "launch -g RTX_4090 -n 1 --template $h --label e2e-tpl" || return 1
    keys Tab Enter
    sim_expect "[x.get('template_hash_id') for x in insts if x.get('label') == 'e2e-tpl']" "[\"$h\"]" || return 1
    sim_expect "[x.get('image_uuid', '').split(':')[0] for x in insts if x.get('label') == 'e2e-tpl']" "[\"${img%%:*}\"]" || return 1
    [ "$(creates)" = "$((cb + 1))" ] || { fail "$(( $(creates) - cb )) creates sent"; return 1; }
}

t_read_only() {
    tm kill-server >/dev/null 2>&1
    cb=$(creates); sb=$(searches)
    rentop_start -s 200x45 --read-only || return 1
    wait_for "Instances" 30 || return 1
    cmd "$LAUNCH"
    wait_for "read-only" 10 || return 1
    sleep 2
    not_on_screen "Confirm billing" || return 1
    [ "$(creates)" = "$cb" ] || { fail "a create was sent under --read-only"; return 1; }
    [ "$(searches)" = "$sb" ] || { fail "a search was sent under --read-only"; return 1; }
}

tap "bad flags: explained with the usage, nothing sent" t_bad_flags
tap "no offer: the query used said, nothing rented" t_no_offer
tap "Esc on the confirmation: nothing sent" t_esc
tap "Rent: the confirmed offer rented once, shown in the table" t_rent
tap "lost answer: unknown, sent once" t_lost
tap ":launch during a replacement (O) stops it" t_stops_replace
tap "refused by the service: the form given back with its words" t_refused
tap "--template HASH: rented with the template" t_template
tap "--read-only: refused, nothing sent" t_read_only
t_quit() { keys 1; sleep 0.5; rentop_quit; }
tap "q quits with status 0 and no sanitizer report" t_quit
e2e_done
