#!/usr/bin/env bash
# Runs schemathesis against a fresh Muster server and its own OpenAPI document.
#
#   bash scripts/schemathesis.sh [extra schemathesis options]
#
# Starts `muster serve` (debug build) on a temporary SQLite database and a free port, registers a
# user and gets a bearer token over the API, runs every check of `schemathesis run` with the
# token, then stops the server and removes the database. Exit code: schemathesis's.
#
# Environment: SCHEMATHESIS (the command, default `schemathesis`; install with
# `pip install schemathesis`), MAX_EXAMPLES (cases per operation, default 30), PORT (default a
# free one), MUSTER_BIN (a built binary; default: `cargo build` and target/debug/muster).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS=${SCHEMATHESIS:-schemathesis}
MAX_EXAMPLES=${MAX_EXAMPLES:-30}
PORT=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
if [ -z "${MUSTER_BIN:-}" ]; then
    cargo build --quiet
    MUSTER_BIN=target/debug/muster
fi

work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

base=http://127.0.0.1:$PORT
MUSTER_BIND=127.0.0.1:$PORT DATABASE_URL="sqlite://$work/muster.db" MUSTER_DATA_DIR="$work" \
    MUSTER_LOG=warn "$MUSTER_BIN" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    curl -sf "$base/healthz" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -sf "$base/healthz" >/dev/null || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

email="schemathesis@example.org"
password="schemathesis-password-1"
curl -sf -X POST "$base/api/v1/users" -H 'content-type: application/json' \
    -d "{\"email\": \"$email\", \"password\": \"$password\"}" >/dev/null
token=$(curl -sf -X POST "$base/api/v1/auth/token" -H 'content-type: application/json' \
    -d "{\"email\": \"$email\", \"password\": \"$password\"}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')

# Something for `{id}` to find (scripts/schemathesis.toml sends id 1): two rosters, a battle
# between them against a guest, and a campaign.
post() {
    curl -sf -X POST "$base$1" -H "Authorization: Bearer $token" -H 'content-type: application/json' -d "$2" >/dev/null
}
roster() {
    cat <<JSON
{"format": "muster.lotf.roster/1", "name": "$1", "war": "american_revolution", "nation": "british",
 "points_limit": 150, "force_commander": {"name": "$1 general"},
 "groups": [{"commander": {"name": "Left"}, "elements": [
   {"name": "$1 1st", "type": "infantry", "size": "medium"},
   {"name": "$1 2nd", "type": "infantry", "size": "medium"},
   {"name": "$1 3rd", "type": "infantry", "size": "medium"}]},
  {"commander": {"name": "Right"}, "elements": [
   {"name": "$1 4th", "type": "infantry", "size": "medium"},
   {"name": "$1 5th", "type": "infantry", "size": "medium"},
   {"name": "$1 6th", "type": "infantry", "size": "medium"}]}]}
JSON
}
post /api/v1/rosters "$(roster Red)"
post /api/v1/rosters "$(roster Green)"
post /api/v1/battles '{"first": "r:1", "second": "r:2", "second_player": "Guest Gus"}'
post /api/v1/campaigns '{"name": "Schemathesis", "map": "philadelphia-1777", "points": 150}'

# Revoking the token would log the rest of the run out; that operation is covered by the
# integration tests instead.
set +e
"$SCHEMATHESIS" --config-file scripts/schemathesis.toml run "$base/api/v1/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks all \
    --max-examples "$MAX_EXAMPLES" \
    --exclude-operation-id revoke_token \
    --generation-database none \
    --request-timeout 60 \
    "$@"
status=$?
set -e
echo "server log (warnings and errors): $(grep -c . "$work/server.log") lines" >&2
grep -iE "error|panic" "$work/server.log" | head -20 >&2 || true
exit $status
