#!/usr/bin/env bash
# Floods a fresh Muster server with heavy requests and measures /healthz and an ordinary API
# page meanwhile. All load comes from wrk (one process), so the load generator does not eat the
# cores the server needs. Figures go to docs/reliability.md.
#
#   cargo build --release && bash scripts/flood.sh [target/release/muster] [port]
#
# Phases: idle; 32 connections of ONE player asking for battle odds (7 000 battles of 10 against
# 10 units each, answered directly); 64 anonymous connections checking 50 rosters a request.
set -euo pipefail
BIN=${1:-target/release/muster}
PORT=${2:-18180}
FLOOD_SECS=${FLOOD_SECS:-25}
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 2; }
U=http://127.0.0.1:$PORT
DIR=$(mktemp -d)
trap 'kill $(cat "$DIR/pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$DIR"' EXIT

python3 - "$DIR" <<'PY'
import json, sys
d = sys.argv[1]
def force(name, n):
    els = [{"name": f"{name} foot {i}", "type": "infantry", "size": "medium"} for i in range(n)]
    return {"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
            "nation": "british", "points_limit": 25 * n, "force_commander": {"name": f"{name} general"},
            "groups": [{"commander": {"name": "Left"}, "elements": els[: n // 2]},
                       {"commander": {"name": "Right"}, "elements": els[n // 2:]}]}
json.dump({"attacker": force("Crown", 10), "defender": force("Patriots", 10), "seed": 1, "runs": 7000},
          open(f"{d}/odds.json", "w"))
json.dump([force(f"R{i}", 12) for i in range(50)], open(f"{d}/validate.json", "w"))
for name in ("odds", "validate"):
    body = open(f"{d}/{name}.json").read()
    open(f"{d}/{name}.lua", "w").write(f"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = {json.dumps(body)}
-- Status counts: each wrk thread has its own Lua state, so done() asks the thread for them.
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args) counts = {{}} end
function response(status, headers, body) counts[status] = (counts[status] or 0) + 1 end
function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("counts")) do
      io.write(string.format("  status %d: %d\\n", status, n))
    end
  end
end
""")
PY

DATABASE_URL=$DIR/m.db MUSTER_DATA_DIR=$DIR MUSTER_BIND=127.0.0.1:$PORT MUSTER_LOG=warn \
  "$BIN" serve >"$DIR/log" 2>&1 &
echo $! >"$DIR/pid"
for _ in $(seq 50); do curl -sf -o /dev/null "$U/healthz" && break; sleep 0.2; done

curl -sf -o /dev/null -X POST "$U/api/v1/users" -H 'content-type: application/json' \
  -d '{"email":"flood@example.org","password":"correct horse battery"}'
TOKEN=$(curl -sf -X POST "$U/api/v1/auth/token" -H 'content-type: application/json' \
  -d '{"email":"flood@example.org","password":"correct horse battery"}' |
  python3 -c 'import sys,json;print(json.load(sys.stdin)["token"])')

probe() {
  echo "  /healthz, 4 connections:"
  wrk -t1 -c4 -d10s --latency "$U/healthz" | grep -E "^ +(50|99)%|Requests/sec|timeout" | sed 's/^/  /'
  echo "  /api/v1/rosters (logged in), 2 connections:"
  wrk -t1 -c2 -d5s --latency -H "authorization: Bearer $TOKEN" "$U/api/v1/rosters" |
    grep -E "^ +(50|99)%|Requests/sec|timeout" | sed 's/^/  /'
}

echo "== idle"
probe
echo "== 32 connections of one player asking for odds"
wrk -t1 -c32 -d${FLOOD_SECS}s --timeout 60s -s "$DIR/odds.lua" -H "authorization: Bearer $TOKEN" \
  "$U/api/v1/lotf/battles/odds" >"$DIR/flood-odds" &
FLOOD=$!
sleep 3; probe; wait $FLOOD || true
grep -E "status|Requests/sec" "$DIR/flood-odds" || cat "$DIR/flood-odds"
echo "== 64 anonymous connections checking 50 rosters each"
wrk -t1 -c64 -d${FLOOD_SECS}s --timeout 60s -s "$DIR/validate.lua" "$U/api/v1/lotf/validate" >"$DIR/flood-validate" &
FLOOD=$!
sleep 3; probe; wait $FLOOD || true
grep -E "status|Requests/sec" "$DIR/flood-validate" || cat "$DIR/flood-validate"
