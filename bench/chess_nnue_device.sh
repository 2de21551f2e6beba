#!/usr/bin/env bash
# Generate #42's NNUE training data on a machine's spare cores for a fixed time: one
# bench/chess_nnue_data.py generator a core, each with its own seed and file, stopped by
# SIGTERM after the game in play, then packed into one file, $OUT/nnue.tar.xz (the device
# tool brings back at most 8 files). Made for a machine lent for a short while: the device
# machine's 16 cores beside the Go network's training (bench/go_net_device.sh starts it in
# the background), or any many-core machine:
#
#   NNUE_SECONDS=400 OUT=/tmp/out bash bench/chess_nnue_device.sh
#
# Environment: NNUE_SECONDS (default 400, the compile included), NNUE_JOBS (generators;
# default "auto": the cores less two), NNUE_SEED_BASE (generator i plays seed BASE + i;
# default the minute it starts, yymmddHHMM00, so a later run never repeats a game),
# STOCKFISH (default: .devbin/stockfish.xz unpacked, which bench/go_net_wheels.sh makes
# from this machine's, as the device machine has none; else stockfish on PATH), PYTHON
# (default python3), OUT. Where no Stockfish runs it says so and generates nothing
# (exit 0: the Go training beside it goes on).
set -u
PYTHON=${PYTHON:-python3}
OUT=${OUT:-$PWD/out-nnue}
SECS=${NNUE_SECONDS:-400}
WORK=$(mktemp -d /tmp/nnue-data.XXXXXX)
SF=${STOCKFISH:-}
if [ -z "$SF" ] && [ -f .devbin/stockfish.xz ]; then
  "$PYTHON" -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)' .devbin/stockfish.xz "$WORK/stockfish" && chmod +x "$WORK/stockfish" \
    && SF=$WORK/stockfish
fi
[ -z "$SF" ] && SF=$(command -v stockfish || command -v /usr/games/stockfish || true)
if [ -z "$SF" ] || ! printf 'uci\nquit\n' | timeout 20 "$SF" 2>/dev/null | grep -q uciok; then
  echo "nnue data: no Stockfish runs here (${SF:-none found}); none generated"
  exit 0
fi
CORES=$(nproc)
JOBS=${NNUE_JOBS:-auto}
[ "$JOBS" = auto ] && JOBS=$((CORES > 2 ? CORES - 2 : 1))
BASE=${NNUE_SEED_BASE:-$(date -u +%y%m%d%H%M)00}
mkdir -p "$OUT" "$WORK/nnue"
start=$(date +%s)
echo "nnue data: $JOBS generators, seeds $((BASE + 1))..$((BASE + JOBS)), $SECS s, $SF"
# one process compiles the engine first; the generators then load it from numba's cache
"$PYTHON" -c 'from gamesearch.engines.chess.engine import ChessEngine
ChessEngine(16).warm_up()' || { echo "nnue data: the engine did not compile"; exit 6; }
left=$((SECS - $(date +%s) + start))
if [ "$left" -lt 30 ]; then
  echo "nnue data: ${left} s left after the compile; none generated"
  exit 0
fi
pids=()
for i in $(seq 1 "$JOBS"); do
  seed=$((BASE + i))
  nice -n 15 timeout -s TERM -k 30 "$left" "$PYTHON" bench/chess_nnue_data.py \
    --positions 100000000 --seed "$seed" --out "$WORK/nnue/seed$seed.jsonl" \
    --stockfish "$SF" 2> "$WORK/nnue/seed$seed.log" &
  pids+=($!)
done
wait "${pids[@]}"
positions=$(cat "$WORK"/nnue/seed*.jsonl 2>/dev/null | wc -l)
tar -C "$WORK" -cJf "$OUT/nnue.tar.xz" nnue
echo "nnue data: $positions positions in $(( $(date +%s) - start )) s: $OUT/nnue.tar.xz" \
  "($(du -h "$OUT/nnue.tar.xz" | cut -f1))"
rm -rf "$WORK"
