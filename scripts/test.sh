#!/usr/bin/env bash
# The whole test suite: every module's unit, system and example tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
start=$(date +%s)
mvn -B -Dstyle.color=never verify "$@"
echo "[celer] test suite finished in $(( $(date +%s) - start )) s"
