#!/bin/sh
# The public broadcast at scale (issue 46.5): runs build/bin/broadcast_bench,
# which starts `arbiter serve --broadcast` and opens the viewers. Both need
# 16,000 sockets and more: the open-file limit is raised to 20,000 (the
# server's budget, its caps and reserve, is derived from it).
# Usage: tests/bench/broadcast_bench.sh [VIEWERS]   (default 16000)
set -e
cd "$(dirname "$0")/../.."
ulimit -n 20000 || { echo "cannot raise the open-file limit to 20000 (ulimit -Hn: $(ulimit -Hn))" >&2; exit 1; }
export BROADCAST_BENCH_VIEWERS="${1:-${BROADCAST_BENCH_VIEWERS:-16000}}"
date -u
uptime
exec build/bin/broadcast_bench
