#!/bin/sh
# `make fuzz`: build the libFuzzer targets with clang
# (-fsanitize=fuzzer,address,undefined) and run each for a bounded time,
# from the corpus kept in the tree (tests/fuzz/corpus/<target>/, small,
# read only here) and seeds from the unit-test fixtures.  New inputs go to
# $FUZZ_OUT/corpus-<target>; `FUZZ_MERGE=1` merges what they add to coverage
# back into the tree's corpus.  `make check` runs this for FUZZ_SECONDS (8) per
# target (tests/run.sh BUILD fuzz).
#
#   tests/fuzz/run.sh [target ...]     targets: json_map json_stream apierr query sanitize logtail sshkey secrets
#
# Environment: FUZZ_SECONDS (per target, default 30), FUZZ_OUT (default
# build/fuzz), CLANG (default clang).  Prints "ok - fuzz_<target> ..." or
# "not ok - ..." per target; crashing inputs are kept in $FUZZ_OUT/crash-*.
# Exits non-zero when a target crashed or did not build; without clang it
# says so as one skipped test.
set -u
cd "$(dirname "$0")/../.."
SECS=${FUZZ_SECONDS:-30}
OUT=${FUZZ_OUT:-build/fuzz}
CLANG=${CLANG:-clang}
[ $# -gt 0 ] || set -- json_map json_stream apierr query sanitize logtail sshkey secrets
mkdir -p "$OUT"
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "ok - fuzz # SKIP no $CLANG to build the libFuzzer targets"
    exit 0
fi
FIX=tests/unit/fixtures
# the core sources the targets need: the .c beside every header their
# includes reach, followed through those sources (derived, so a target that
# starts using another module builds without editing this list); they go
# into an archive, so the linker takes only what a target calls
closure() {
    todo="$*"; seen=
    while [ -n "$todo" ]; do
        # shellcheck disable=SC2086
        set -- $todo; f=$1; shift; todo="$*"
        case " $seen " in *" $f "*) continue ;; esac
        seen="$seen $f"
        for h in $(sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f"); do
            [ -f "src/$h.c" ] && todo="$todo src/$h.c"
            [ -f "src/$h.h" ] && todo="$todo src/$h.h"
            [ -f "tests/fuzz/$h.h" ] && todo="$todo tests/fuzz/$h.h"
        done
    done
    # shellcheck disable=SC2086
    printf '%s\n' $seen | grep '^src/.*\.c$' | sort
}
CORE=$(closure tests/fuzz/fuzz_*.c)
CFLAGS="-std=c11 -g -O1 -D_GNU_SOURCE -Isrc -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
LIBS="$(pkg-config --cflags --libs jansson yajl libcrypto) -lm -pthread"
failed=0

# the core is compiled once (instrumented, two files at a time) into an
# archive linked into each target
OBJ=$OUT/obj; mkdir -p "$OBJ"
OBJS=
for c in $CORE; do OBJS="$OBJS $OBJ/$(basename "$c" .c).o"; done
LIB=$OUT/libfuzzcore.a
# shellcheck disable=SC2086
printf '%s\n' $CORE | xargs -P 2 -I{} sh -c \
    'o="$1/$(basename "$2" .c).o"; $3 $4 -c -o "$o" "$2" 2>"$o.log" || rm -f "$o"' \
    sh "$OBJ" {} "$CLANG" "$(echo "$CFLAGS" | sed 's/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,/') $(pkg-config --cflags jansson yajl)"
rm -f "$LIB"
# shellcheck disable=SC2086
ar rcs "$LIB" $OBJS >"$OUT/ar.log" 2>&1 || echo "# a core source did not compile: see $OBJ/*.log"

for t in "$@"; do
    bin=$OUT/fuzz_$t
    # shellcheck disable=SC2086
    if ! $CLANG $CFLAGS -o "$bin" "tests/fuzz/fuzz_$t.c" "$LIB" $LIBS >"$OUT/build-$t.log" 2>&1; then
        echo "not ok - fuzz_$t does not build (log: $OUT/build-$t.log)"
        tail -n 20 "$OUT/build-$t.log" | sed 's/^/    # /'
        failed=1
        continue
    fi
    corpus=$OUT/corpus-$t
    mkdir -p "$corpus"
    seeds=$OUT/seeds-$t
    rm -rf "$seeds"; mkdir -p "$seeds"
    dict=""
    case $t in
    json_map|json_stream) cp $FIX/*.json "$seeds"/; dict="-dict=tests/fuzz/json.dict" ;;
    apierr)   # two status bytes (429, 404, 502, 200: 100 + value % 500) in front of each body
              n=0
              for f in $FIX/errors/*; do
                  for st in '\001\111' '\001\060' '\001\222' '\000\144'; do
                      n=$((n + 1)); { printf "$st"; cat "$f"; } >"$seeds/e$n"
                  done
              done
              dict="-dict=tests/fuzz/json.dict" ;;
    query)    cp tests/fuzz/seeds/query/* "$seeds"/ ;;
    sanitize) cp $FIX/*.json $FIX/errors/* "$seeds"/ ;;
    logtail)  cp tests/fuzz/seeds/logtail/* "$seeds"/ ;;
    sshkey)   cp tests/fuzz/seeds/sshkey/* "$seeds"/ ;;
    secrets)  cp $FIX/*.json "$seeds"/; dict="-dict=tests/fuzz/json.dict" ;;
    esac
    kept=tests/fuzz/corpus/$t
    mkdir -p "$kept"
    log=$OUT/fuzz-$t.log
    "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$OUT/crash-$t-" $dict "$corpus" "$kept" "$seeds" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && [ -n "${FUZZ_MERGE:-}" ]; then
        # keep the tree's corpus small: a set cover of the features, at most 2 KB each
        rm -rf "$OUT/merged-$t"; mkdir -p "$OUT/merged-$t"
        if "$bin" -set_cover_merge=1 -max_len=2048 "$OUT/merged-$t" "$kept" "$corpus" \
            >"$OUT/merge-$t.log" 2>&1; then
            rm -rf "$kept" && mv "$OUT/merged-$t" "$kept"
        fi
    fi
    runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -n 1 | grep -oE '[0-9]+')
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+')
    if [ "$rc" -eq 0 ]; then
        echo "ok - fuzz_$t: ${runs:-?} runs in ${SECS}s, coverage ${cov:-?} edges, no crash"
    else
        echo "not ok - fuzz_$t crashed (exit $rc; log: $log)"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -n 10 | sed 's/^/    # /'
        failed=1
    fi
done
exit $failed
