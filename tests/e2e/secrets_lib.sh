# secrets_lib.sh: sourced after lib.sh by e2e scripts that must prove no
# secret leaked.  The simulator records every secret it ever handed out
# (API keys, instance and endpoint keys, Jupyter tokens, env values, TOTP
# secrets, backup codes, 2FA session keys, challenge secrets; GET
# /__sim/secrets, kept across /__sim/reset); these helpers grep a run's
# files for each of them.  A hit is reported by its index and length,
# never by the secret itself.

# sim_secrets_file FILE: the issued secrets of at least 8 characters, one a
# line, into FILE (shorter ones would match ordinary text).
sim_secrets_file() {
    sim_get /__sim/secrets | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d.get("secrets", []):
    if isinstance(s, str) and len(s) >= 8 and "\n" not in s:
        print(s)
' >"$1" || { fail "cannot read /__sim/secrets"; return 1; }
}

# no_issued_secret_in PATH...: none of the simulator's secrets occurs in the
# files (directories searched recursively, binary files too).  Fails naming
# the file and the secret's index and length.
no_issued_secret_in() {
    list="$E2E_TMP/secrets.list"
    sim_secrets_file "$list" || return 1
    n=$(wc -l <"$list")
    [ "$n" -gt 0 ] || { fail "the simulator reported no secret"; return 1; }
    hits=0 idx=0
    while IFS= read -r s; do
        idx=$((idx + 1))
        found=$(grep -rlaF -- "$s" "$@" 2>/dev/null | head -n 3)
        if [ -n "$found" ]; then
            hits=$((hits + 1))
            note "secret #$idx (${#s} characters) found in: $(echo "$found" | tr '\n' ' ')"
        fi
    done <"$list"
    rm -f "$list"
    [ "$hits" -eq 0 ] || { fail "$hits issued secret(s) found in the run's files"; return 1; }
    note "no issued secret (of $n) in $*"
    return 0
}
