#!/usr/bin/env bash
# Fetch, here, the wheels that bench/go_net_device.sh installs on the device machine (which
# has no network): mctx and pgx with what they need beyond the device's own packages, and
# python-chess; and pack this machine's Stockfish into .devbin/ for the NNUE data that
# bench/chess_nnue_device.sh generates beside the training (both folders git-ignored).
set -eu
mkdir -p .whl
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_17_x86_64 --platform any -d .whl \
  mctx==0.0.71 pgx==2.6.0 svgwrite==1.4.3
# python-chess 1.11 comes as source only: built here into a wheel (pure Python)
python3 -m pip wheel -q --no-deps -w .whl chess==1.11.2
ls -l .whl
sf=$(command -v stockfish || command -v /usr/games/stockfish || true)
if [ -n "$sf" ]; then
  # xz: 47 MB -> 22 MB, for the call's 64 MiB (the tracked tree, the wheels and the run
  # travel with it)
  mkdir -p .devbin && xz -6 -c "$sf" > .devbin/stockfish.xz && ls -l .devbin
else
  echo "no stockfish here (apt install stockfish): the device run will generate no NNUE data"
fi
