# create_lib.sh: helpers shared by the create e2e scripts (test_create.sh,
# test_create_lost.sh, test_replace.sh): the simulator's create counter and
# instances by label, an offers search, the offer type, a fresh search and
# filling the create form.  Sourced after lib.sh.

# $EDITOR for the onstart field: writes a script far over 4,048 characters
cat >"$E2E_TMP/editor.sh" <<'EOF'
#!/bin/sh
i=0
: >"$1"
while [ $i -lt 300 ]; do echo "echo onstart line $i of a long setup script" >>"$1"; i=$((i + 1)); done
EOF
chmod 755 "$E2E_TMP/editor.sh"
unset VISUAL
export EDITOR="$E2E_TMP/editor.sh"

creates() { sim_state "count('/api/v0/asks')"; }
# the simulator's instance with label L: FIELD
by_label() { sim_state "[x.get('$2') for x in insts if x.get('label') == '$1']"; }

# Search on-demand offers with room for 20 GB, cheapest first.
search() {
    keys : ; type_text "offers num_gpus=1 disk_space>=40 $1 -o dph+"; keys Enter
    wait_for_re "[0-9]+ offers" 30 || return 1
}

# Press t until the offers are of type T.
to_type() {
    n=0
    while ! screen | grep -q "Offers: $1 "; do
        [ $n -lt 3 ] || { fail "type $1 not reached"; return 1; }
        keys t; n=$((n + 1))
        wait_for_re "Offers: [a-z-]+ .*" 30 >/dev/null || return 1
        sleep 1
        wait_for_re "[0-9]+ offers" 30 >/dev/null || return 1
    done
}

# Search again (the offers rented by the tests go): r, then its answer.
fresh() {
    keys r
    sleep 1
    wait_for_re "[0-9]+ offers" 40 >/dev/null
}

# Open the form on the first offer; fill image, disk, label, env.
fill_form() {
    keys c
    wait_for "Rent offer" 10 || return 1
    type_text "$1"                     # image
    keys Tab Tab C-u; type_text "20"   # disk
    keys Tab; type_text "$2"           # label
    keys Tab Tab; type_text "-e E2E_VAR=hello -p 8080:8080"  # env
}

