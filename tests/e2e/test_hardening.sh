#!/bin/sh
# test_hardening.sh: the dashboard's guards, each as a user would meet it:
# env values masked in the detail view with a one-at-a-time reveal (v), the
# key-file warning kept on screen until a key, the file descriptors an ssh
# child inherits (0-2 only), the terminal's keypad mode given back after a
# fatal signal, ASCII drawing under LANG=C, a refusal on a terminal that
# cannot address the cursor, and a refusal when standard input is no
# terminal.
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

tap "env values are masked in the detail view; v shows one at a time" t_env_masked
e2e_done
