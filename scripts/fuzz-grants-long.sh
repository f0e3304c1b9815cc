#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz-grants-long.sh: the grants reader's long fuzzing run, outside CI
# (CI runs a smoke of it in scripts/ci-hardening.sh). Thirty minutes unless
# SECONDS_TO_RUN says otherwise; corpus and any crash under
# build-fuzz/long-grants (tests/fuzz/run-long.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
exec tests/fuzz/run-long.sh grants "${SECONDS_TO_RUN:-1800}" "$@"
