#!/usr/bin/env bash
# Fetch, here, the wheels that bench/go_net_device.sh installs on the device machine (which
# has no network): mctx and pgx with what they need beyond the device's own packages.
set -eu
mkdir -p .whl
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_17_x86_64 --platform any -d .whl \
  mctx==0.0.71 pgx==2.6.0 svgwrite==1.4.3
ls -l .whl
