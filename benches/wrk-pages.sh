#!/usr/bin/env bash
# Measures pages with wrk on the SQLite default: the roster editor of a 6-group x 6-element
# roster (logged in), a campaign's page and its standings after a turn, beside /healthz, on one
# release build. Usage: bash benches/wrk-pages.sh
# Needs wrk (Debian package `wrk`). Prints requests/second and latency percentiles.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-20s}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-16}"
PORT="${PORT:-18099}"

cargo build --release --quiet
BIN=target/release/muster
DATA=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
export MUSTER_DATA_DIR="$DATA" MUSTER_BIND="127.0.0.1:$PORT" MUSTER_LOG=warn
printf 'benchmark password\n' | $BIN user create --email bench@example.org >/dev/null
printf 'benchmark password\n' | $BIN user create --email rival@example.org >/dev/null
$BIN serve & SERVER=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/auth/token" -H 'content-type: application/json' \
  -d '{"email":"bench@example.org","password":"benchmark password"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
ROSTER=$(python3 - <<'PY'
import json
kinds = [("infantry","large",[]),("infantry","medium",["elite"]),("infantry","medium",["grenadiers"]),
         ("cavalry","medium",["light_dragoons"]),("artillery","large",[]),("infantry","small",["militia"])]
groups = [{"commander": {"name": f"Colonel {g}"}, "elements": [
    {"name": f"Element {g}.{i}", "type": t, "size": s, "upgrades": u} for i, (t, s, u) in enumerate(kinds)]}
    for g in range(1, 7)]
print(json.dumps({"format": "muster.lotf.roster/1", "name": "Bench 6x6", "war": "american_revolution",
                  "nation": "british", "points_limit": 1500, "force_commander": {"name": "Howe"}, "groups": groups}))
PY
)
ID=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/rosters" -H "Authorization: Bearer $TOKEN" \
  -H 'content-type: application/json' -d "$ROSTER" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
# A browser session for the page: log in through the form like a browser.
JAR="$DATA/cookies"
CSRF=$(curl -sf -c "$JAR" -b "$JAR" "http://127.0.0.1:$PORT/login" | sed -n 's/.*name="csrf_token" value="\([^"]*\)".*/\1/p' | head -n 1)
curl -sf -o /dev/null -c "$JAR" -b "$JAR" -X POST "http://127.0.0.1:$PORT/login" \
  --data-urlencode "csrf_token=$CSRF" --data-urlencode "email=bench@example.org" --data-urlencode "password=benchmark password"
COOKIE="muster_session=$(awk '$6 == "muster_session" {print $7}' "$JAR")"
curl -sf -o /dev/null -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/rosters/$ID/edit" || { echo "editor page not reachable"; exit 1; }

echo "== /rosters/$ID/edit (6 groups x 6 elements, logged in), $THREADS threads, $CONNECTIONS connections, $DURATION"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/rosters/$ID/edit"
# A campaign on the Philadelphia map: both players enlist a legal force, one turn is played.
api() { curl -sf -X "$1" "http://127.0.0.1:$PORT/api/v1$2" -H "Authorization: Bearer $3" -H 'content-type: application/json' ${4:+-d "$4"}; }
RIVAL=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/auth/token" -H 'content-type: application/json' \
  -d '{"email":"rival@example.org","password":"benchmark password"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
force() { python3 -c "
import json
print(json.dumps({'format': 'muster.lotf.roster/1', 'name': '$1', 'war': 'american_revolution', 'nation': '$2',
  'points_limit': 150, 'force_commander': {'name': 'General'}, 'groups': [{'name': f'Brigade {g}',
  'commander': {'name': f'Colonel {g}'}, 'elements': [{'name': f'Regiment {g}-{e}', 'type': 'infantry',
  'size': 'medium'} for e in range(1, 4)]} for g in (1, 2)]}))"; }
R1=$(api POST /rosters "$TOKEN" "$(force 'Crown' british)" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
R2=$(api POST /rosters "$RIVAL" "$(force 'Congress' american)" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
CAMPAIGN=$(api POST /campaigns "$TOKEN" '{"name":"Bench","map":"philadelphia-1777","points":200,"turns":8}')
CID=$(echo "$CAMPAIGN" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
CODE=$(echo "$CAMPAIGN" | python3 -c 'import json,sys; print(json.load(sys.stdin)["invite_code"])')
api POST "/campaigns/$CID/join" "$TOKEN" "{\"code\":\"$CODE\",\"side\":0,\"roster_id\":$R1}" >/dev/null
api POST "/campaigns/$CID/join" "$RIVAL" "{\"code\":\"$CODE\",\"side\":1,\"roster_id\":$R2}" >/dev/null
api POST "/campaigns/$CID/start" "$TOKEN" >/dev/null
api POST "/campaigns/$CID/orders" "$TOKEN" '{"force":"f1","order":{"order":"move","route":"r1"}}' >/dev/null
api POST "/campaigns/$CID/orders" "$RIVAL" '{"force":"f2","order":{"order":"move","route":"r9"}}' >/dev/null
curl -sf -o /dev/null -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/campaigns/$CID" || { echo "campaign page not reachable"; exit 1; }

echo "== /campaigns/$CID (map, orders, battles, forces, latest log; logged in)"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/campaigns/$CID"
echo "== /campaigns/$CID/standings"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/campaigns/$CID/standings"
echo "== /healthz"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:$PORT/healthz"
