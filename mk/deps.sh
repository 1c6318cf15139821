#!/bin/sh
# Install the Debian packages rentop needs to build and test, but only the
# missing ones.  Uses sudo when not root.  Safe to run again and again.
#
#   sh mk/deps.sh             what make check, demo, bench need
#   sh mk/deps.sh coverage    also gcovr, for make coverage alone
set -eu

# pkg-config module -> Debian package
LIBS="ncursesw:libncurses-dev libcurl:libcurl4-openssl-dev jansson:libjansson-dev
libmicrohttpd:libmicrohttpd-dev liboath:liboath-dev libqrencode:libqrencode-dev
cmocka:libcmocka-dev inih:libinih-dev libcrypto:libssl-dev zlib:zlib1g-dev
yajl:libyajl-dev"
# command -> Debian package (test tools)
TOOLS="pkg-config:pkg-config cc:gcc make:make tmux:tmux oathtool:oathtool curl:curl
valgrind:valgrind clang:clang aha:aha qrencode:qrencode zbarimg:zbar-tools
ssh-keygen:openssh-client"
# make coverage's summariser: not needed by make check
[ "${1:-}" = coverage ] && TOOLS="$TOOLS gcovr:gcovr"

missing=""
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
for pair in $LIBS; do
    mod=${pair%%:*}; pkg=${pair#*:}
    if ! pkg-config --exists "$mod" 2>/dev/null; then missing="$missing $pkg"; fi
done
for pair in $TOOLS; do
    cmd=${pair%%:*}; pkg=${pair#*:}
    if ! command -v "$cmd" >/dev/null 2>&1; then missing="$missing $pkg"; fi
done
# the sanitizer runtime for clang's LeakSanitizer/libFuzzer builds
if command -v clang >/dev/null 2>&1 && ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    missing="$missing libclang-rt-14-dev"
fi

missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -z "$(echo $missing | tr -d ' ')" ]; then
    echo "deps: all build and test dependencies are present"
    exit 0
fi
echo "deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "deps: not root and no sudo; install these by hand:$missing" >&2; exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
