#!/usr/bin/env bash
# The server's resident size over a 10-minute page benchmark (issue 17): builds data with
# benches/history.py (campaigns of 40 and 500 entries, 200 rosters, a 400-element roster), then
# runs wrk on the campaign pages, a log page, the roster list and two editors in turn, ten rounds
# of a minute, printing VmRSS after each. Usage: bash benches/memory.sh   (needs wrk)
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18096}"
DATA=$(python3 benches/history.py --sizes 40,500 --duration 1s --keep-data 2>&1 >/dev/null \
  | sed -n 's/^data kept in //p')
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
MUSTER_DATA_DIR="$DATA" MUSTER_BIND="127.0.0.1:$PORT" MUSTER_LOG=warn target/release/muster serve &
SERVER=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
COOKIE=$(python3 -c "import sys; sys.path.insert(0, 'benches'); import history; print(history.session_cookie($PORT))")
rss() { awk '/VmRSS/ {print $2}' "/proc/$SERVER/status"; }
echo "start: $(rss) kB"
for round in $(seq 1 10); do
  for page in /campaigns/1 /campaigns/2 /campaigns/2/log /rosters /rosters/3/edit /rosters/203/edit; do
    wrk -t2 -c16 -d10s -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT$page" >/dev/null
  done
  echo "after minute $round: $(rss) kB"
done
