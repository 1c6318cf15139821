#!/bin/sh
# test_secret_guards.sh: the dashboard's secret guards, as a user meets
# them: env values masked in the detail view with a one-at-a-time reveal
# (v), and the warning of a key file readable by others kept on screen
# (data arriving, other toasts) until a key, and in the event log.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
ID=$(first_inst "x.get('actual_status') == 'running'")

set_inst() {
    sim_post /__sim/set "{\"what\":\"instance\",\"id\":$1,\"field\":\"$2\",\"value\":$3}"
}

t_env_masked() {
    set_inst "$ID" extra_env '[["HF_TOKEN","hf_SeCrEt1"],["WANDB_API_KEY","wandb_SeCrEt2"]]' || return 1
    rentop_start -s 120x40 || return 1
    wait_for "$ID" 30 || return 1
    select_row "$ID" || return 1
    keys Enter
    wait_for "HF_TOKEN=********" 10 || return 1
    on_screen "WANDB_API_KEY=********" || return 1
    not_on_screen "SeCrEt" || return 1
    keys v
    wait_for "HF_TOKEN=hf_SeCrEt1" 10 || return 1
    on_screen "WANDB_API_KEY=********" || return 1
    keys v
    wait_for "WANDB_API_KEY=wandb_SeCrEt2" 10 || return 1
    on_screen "HF_TOKEN=********" || return 1
    keys v
    wait_for "WANDB_API_KEY=********" 10 || return 1
    not_on_screen "SeCrEt" || return 1
    keys Escape
    rentop_quit
}

# A key file readable by others: the warning stays on screen (data arriving,
# other toasts) until a key is pressed, and is in the event log.
t_key_warning() {
    tm kill-server >/dev/null 2>&1
    rentop_start -s 120x40 || return 1
    chmod 644 "$E2E_TMP/api_key"
    tm kill-server >/dev/null 2>&1
    # restart with the now group-readable file (rentop_start rewrites it 0600)
    rm -f "$E2E_TMP/rentop.rc"
    sed -i "s|^'$RENTOP'|chmod 644 '$E2E_TMP/api_key'; & --refresh 2|" "$E2E_TMP/launch.sh"
    tm_new_session 120x40 "$E2E_TMP/launch.sh" || return 1
    E2E_WATCH=1
    wait_for "$ID" 30 || return 1
    wait_for "readable by group or others" 10 || return 1
    # an instance failing makes an event whose toast would replace an ordinary one
    sim_post /__sim/instance "{\"id\":$ID,\"actual_status\":\"offline\"}" || return 1
    wait_for_re "^ *$ID .*offline" 20 || return 1
    sleep 1
    on_screen "readable by group or others" || return 1
    keys j   # this key clears it
    wait_gone "readable by group or others" 10 || return 1
    keys 2
    wait_for "readable by group or others" 10 || return 1
    keys 1
    chmod 600 "$E2E_TMP/api_key"
    rentop_quit
}

tap "env values are masked in the detail view; v shows one at a time" t_env_masked
tap "a key-file warning waits on screen for a key and is in the event log" t_key_warning
e2e_done
