#!/bin/sh
# test_gpu_names.sh: the service's GPU names (issue 23, "Launch again" 3):
# read once, when the offers query first needs them; gpu_name= completes
# from them in the offers view's query prompt (s) and at `:offers`, a
# fragment matching anywhere (case-insensitive, spaces as underscores); a
# search on a fragment says that it is not a GPU name and gives the names
# that contain it; a search on an exact name says nothing of the kind.
. "$(dirname "$0")/lib.sh"

sim_start --seed 1 --quiet --rate-limits off || { echo "not ok - simulator starts"; exit 1; }
rentop_start -s 160x40 || { echo "not ok - rentop starts"; exit 1; }

reads() { sim_state "count('/api/v0/gpu_names/unique')"; }

# A search without a gpu_name condition does not read the names.
t_no_read() {
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "no search yet" 10 || return 1
    keys : ; type_text "offers num_gpus=1"; keys Enter
    wait_for_re "[0-9]+ offers?" 30 || return 1
    sleep 1
    [ "$(reads)" = 0 ] || { fail "the names were read before anything needed them"; return 1; }
}

# In the query prompt (s): gpu_name=40 + Tab; the first Tab asks for the
# names (and says so), the next lists the names that contain 40.
t_prompt_tab() {
    keys s
    wait_for "search:" 10 || return 1
    keys C-u
    type_text "gpu_name=40"
    keys Tab
    sim_expect "count('/api/v0/gpu_names/unique')" 1 20 || return 1
    wait_for "reading the GPU names" 10 || return 1
    sleep 1
    keys Tab
    wait_for "RTX_4090" 10 || return 1
    on_screen "L40S" || return 1
    on_screen "A40" || return 1
    on_screen "RTX_4080" || return 1
    not_on_screen "RTX_3090" || return 1
    wait_for_flat "search: gpu_name=40" 5 || return 1
}

# A fragment in another case with an underscore: their common prefix; one
# more digit: the one name, and a search on it says nothing of the kind.
t_prompt_complete() {
    keys C-u
    type_text "gpu_name=rtx_40"
    keys Tab
    wait_for_flat "search: gpu_name=RTX_40" 10 || return 1
    type_text "9"
    keys Tab
    wait_for_flat "search: gpu_name=RTX_4090 " 10 || return 1
    keys Enter
    wait_for_re "[0-9]+ offers?" 30 || return 1
    not_on_screen "is not a GPU name" || return 1
    [ "$(reads)" = 1 ] || { fail "the names were read $(reads) times"; return 1; }
}

# :offers gpu_name=4090: the not-exact note with the matching name.
t_fragment_note() {
    sleep 7 # the client's pacing of searches
    keys : ; type_text "offers gpu_name=4090"; keys Enter
    wait_for "gpu_name=4090 is not a GPU name: RTX 4090 — Tab completes" 60 || return 1
    sleep 7
    keys : ; type_text "offers gpu_name=xyz"; keys Enter
    wait_for "gpu_name=xyz is not a GPU name (none contains it)" 60 || return 1
    [ "$(reads)" = 1 ] || { fail "the names were read $(reads) times"; return 1; }
}

# The `:` line completes gpu_name= as the prompt does.
t_command_tab() {
    keys Escape
    keys : ; type_text "offers num_gpus=1 gpu_name=a4"; keys Tab
    wait_for_flat ":offers num_gpus=1 gpu_name=A40 " 10 || return 1
    keys Escape
}

# A fresh session: a search with a gpu_name condition reads the names
# itself (the note then comes with, or right after, the count).
t_search_reads() {
    keys Escape; keys 1 # q in the offers view goes back to the instances
    sleep 0.5
    rentop_quit || return 1
    rentop_start -s 160x40 || return 1
    wait_for "Instances" 30 || return 1
    keys 3
    wait_for "no search yet" 10 || return 1
    keys : ; type_text "offers gpu_name=3090"; keys Enter
    wait_for "gpu_name=3090 is not a GPU name: RTX 3090 — Tab completes" 30 || return 1
    [ "$(reads)" = 2 ] || { fail "the names were read $(reads) times in two sessions"; return 1; }
}

tap "gpu names: a search without gpu_name does not read the names" t_no_read
tap "gpu names: Tab in the query prompt reads the names once and lists those containing the fragment" t_prompt_tab
tap "gpu names: Tab completes a fragment in any case to the common prefix, then the one name; an exact name says nothing" t_prompt_complete
tap "gpu names: a search on a fragment says it is not a GPU name and gives the matching names" t_fragment_note
tap "gpu names: the : line completes gpu_name= too" t_command_tab
tap "gpu names: a search on gpu_name reads the names itself in a fresh session" t_search_reads
e2e_done
