#!/bin/sh
# Build simplech (Martin Fierz's "simple checkers", CheckerBoard's engine) with our line
# driver, for bench/checkers_simplech.py and tests/test_checkers_simplech.py.
#
#   bench/outside/build_simplech.sh SRC_DIR OUT_DIR
#
# SRC_DIR: a folder holding simplech.c and the CheckerBoard headers it includes
# (cb_interface.h, enginedefs.h, checkers_types.h, CBconsts.h), for example a checkout of
# github.com/vhabgood/Checkerboard-for-Linux (its simplech.c is version 1.15, the Linux
# port). Nothing is downloaded here. OUT_DIR receives build/ (a copy of simplech.c without
# the port's Qt logging, which is all that ties it to Qt) and the program OUT_DIR/simplech,
# which speaks the protocol of bench/outside/simplech_driver.cpp. simplech's source stays
# out of this repository: keep OUT_DIR outside it too.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: $0 SRC_DIR OUT_DIR" >&2
    exit 2
fi
src=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$src/simplech.c" ]; then
    echo "build_simplech: no simplech.c in $src (give the folder of a CheckerBoard source)" >&2
    exit 2
fi
for header in cb_interface.h enginedefs.h; do
    if [ ! -f "$src/$header" ]; then
        echo "build_simplech: $src has simplech.c but not $header (CheckerBoard's header)" >&2
        exit 2
    fi
done
compiler=${CXX:-g++}
if ! command -v "$compiler" >/dev/null 2>&1; then
    echo "build_simplech: no C++ compiler ($compiler); install g++ or set CXX" >&2
    exit 2
fi
mkdir -p "$out/build"
out=$(cd "$out" && pwd)
# The Linux port logs its time management through Qt; without LOG_TIME_MGMT nothing else
# of Qt is used.
sed -e '/^[[:space:]]*#include[[:space:]]*<Q/d' -e '/^[[:space:]]*#define[[:space:]]*LOG_TIME_MGMT/d' \
    "$src/simplech.c" > "$out/build/simplech_source.cpp"
"$compiler" -O2 -w -I "$src" -DSIMPLECH_SOURCE="\"$out/build/simplech_source.cpp\"" \
    -o "$out/simplech" "$here/simplech_driver.cpp"
echo "$out/simplech"
