#!/usr/bin/env bash
# Train the Go network (train alphazero-jax go) on the device machine in one call (#43).
#
# The device machine has JAX (CUDA), optax, numpy, typer and rich, but no network: mctx,
# pgx and their needs travel as wheels in .whl/ (bench/go_net_wheels.sh fetches them
# here), and the run to continue travels in .gonet-run/ (checkpoint.npz from the last
# call of this session; absent: a new run, begun from .gonet-run/init.npz's network where
# that is there, a weights.npz of an earlier run with the same blocks and channels). Both
# are git-ignored and named in the call's `carry`. Ignored files do not outlive a session's
# checkout, so the network a session's device run ends with is committed as
# bench/records/go-net/run-weights.npz (tracked, ~1.8 MB at 6 x 64): with no .gonet-run/
# files the next session's run begins from it (Adam's state fresh), and before any device
# run has ended so, from the shipped network (src/gamesearch/data/go/go-net.npz, learned
# from GNU Go's games by train supervised go, the same 6 x 64).
# The run is written straight under $OUT/run, so what the last finished iteration saved
# comes back even if the call is cut off.
#
#   run(command="bash bench/go_net_device.sh", carry=[".whl", ".gonet-run", ".devbin"],
#       timeout_s=600)
#
# Beside the training, the machine's other cores generate #42's chess NNUE data
# (bench/chess_nnue_device.sh: NNUE_JOBS generators, default the cores less two, for the
# training's seconds; its games come back in one file, $OUT/nnue.tar.xz). NNUE_JOBS=0
# leaves those cores idle; without a Stockfish that runs there (.devbin/stockfish.xz) it
# generates nothing.
#
# Environment: GONET_SNAPSHOTS (keep the network every N iterations for the learning
# curve, default 5: ~1.8 MB each at 6 x 64), GONET_SECONDS (training seconds, default 430; the first iteration compiles;
# the last iteration may run past it, then Ctrl-C at +90 s and a kill at +120 s keep the
# call inside 600 s), GONET_NEW (options of a new run), PYTHON (default python3), OUT
# (default ./out-gonet), GONET_CPU_OK (train even where JAX sees no GPU: tests only).
set -u
PYTHON=${PYTHON:-python3}
OUT=${OUT:-$PWD/out-gonet}
SECONDS_BUDGET=${GONET_SECONDS:-430}
NEW=${GONET_NEW:---batch 1024 --simulations 32 --considered 16 --epochs 3 --blocks 6 --channels 64 --minibatch 2048 --lr 0.002}
mkdir -p "$OUT/run"
if ls .whl/*.whl >/dev/null 2>&1; then
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/gonet-site .whl/*.whl || exit 3
  export PYTHONPATH="$PWD/src:/tmp/gonet-site"
else
  export PYTHONPATH="$PWD/src"
fi
export PYTHONUNBUFFERED=1
# no accelerator seen: stop at once rather than spend device time training on its CPU
# (GONET_CPU_OK=1 allows it, for a test of this script on an ordinary machine)
"$PYTHON" -c 'import os, sys, jax; d = jax.devices(); print("jax", jax.__version__, d)
sys.exit(0 if d[0].platform in ("gpu", "cuda", "rocm") or os.environ.get("GONET_CPU_OK") else 5)' || exit 4
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if [ -f .gonet-run/checkpoint.npz ]; then
  cp .gonet-run/checkpoint.npz .gonet-run/log.jsonl "$OUT/run/" 2>/dev/null
  [ -f .gonet-run/weights.npz ] && cp .gonet-run/weights.npz "$OUT/run/"
  HOW="--resume"
elif [ -f .gonet-run/init.npz ]; then
  HOW="$NEW --init-from .gonet-run/init.npz"   # a new run from an earlier run's network
elif [ -f bench/records/go-net/run-weights.npz ]; then
  HOW="$NEW --init-from bench/records/go-net/run-weights.npz"   # an earlier session's network
elif [ -z "${GONET_NEW:-}" ] && [ -f src/gamesearch/data/go/go-net.npz ]; then
  # none yet: self-play begins from the shipped network, learned from GNU Go's games
  # (train supervised go; 6 x 64 as the default GONET_NEW): AlphaGo's order, the teacher
  # first, then itself
  HOW="$NEW --init-from src/gamesearch/data/go/go-net.npz"
else
  HOW="$NEW"
fi
nnue_pid=
if [ "${NNUE_JOBS:-auto}" != 0 ] && [ -f bench/chess_nnue_device.sh ]; then
  NNUE_SECONDS=${NNUE_SECONDS:-$SECONDS_BUDGET} OUT="$OUT" PYTHON="$PYTHON" \
    bash bench/chess_nnue_device.sh > "$OUT/nnue.txt" 2>&1 &
  nnue_pid=$!
fi
echo "training for $SECONDS_BUDGET s: $HOW"
# a last guard: Ctrl-C (SIGINT) makes the trainer stop after saving what it has
# shellcheck disable=SC2086
timeout -s INT -k 30 $((SECONDS_BUDGET + 90)) "$PYTHON" -m gamesearch train alphazero-jax go --out "$OUT/run" $HOW \
  --seconds "$SECONDS_BUDGET" --snapshots "${GONET_SNAPSHOTS:-5}" --json 2>&1 | tee "$OUT/train.txt" | tail -40
status=${PIPESTATUS[0]}
# the learning curve's networks (every GONET_SNAPSHOTS iterations) come back as one file:
# the tool returns at most 8 (bench/go_net_curve.py plays them here)
if [ -d "$OUT/run/snapshots" ]; then
  tar -C "$OUT/run" -cJf "$OUT/snapshots.tar.xz" snapshots && rm -rf "$OUT/run/snapshots"
fi
if [ -n "$nnue_pid" ]; then
  wait "$nnue_pid"
  tail -3 "$OUT/nnue.txt"
fi
ls -l "$OUT/run"
exit "$status"
