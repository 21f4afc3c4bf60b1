#!/usr/bin/env python3
"""Pages against history (issue 17): campaigns of 40, 500, 2 000 and 5 000 log entries (their
page and the first page of their log), the roster list at 200 rosters of 36 elements, and the
size of the editor page of a 36- and a 400-element roster, each measured with wrk beside
/healthz in the same run, on one release build.

Usage: python3 benches/history.py [--duration 10s] [--connections 16] [--postgres URL]
Without --postgres the server runs on a fresh SQLite file; with it, on a fresh database made on
that server (its name: muster_bench). Needs wrk. Prints a Markdown table.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "benchmark password"


class Client:
    """One keep-alive connection to the server's API."""

    def __init__(self, port, token=None):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = token

    def call(self, method, path, body=None):
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        payload = json.dumps(body) if body is not None else None
        try:
            self.conn.request(method, "/api/v1" + path, payload, headers)
            res = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # The server closed an idle keep-alive connection: open a new one.
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request(method, "/api/v1" + path, payload, headers)
            res = self.conn.getresponse()
        data = res.read()
        if res.status >= 300:
            raise SystemExit(f"{method} {path}: {res.status} {data[:300]!r}")
        return json.loads(data) if data else None


def token(port, email):
    return Client(port).call("POST", "/auth/token", {"email": email, "password": PASSWORD})["token"]


def roster(name, nation, groups, per_group, limit):
    kinds = [("infantry", "large", []), ("infantry", "medium", ["elite"]),
             ("infantry", "medium", ["grenadiers"]), ("cavalry", "medium", ["light_dragoons"]),
             ("artillery", "large", []), ("infantry", "small", ["militia"])]
    return {"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
            "nation": nation, "points_limit": limit, "force_commander": {"name": "General"},
            "groups": [{"name": f"Brigade {g}", "commander": {"name": f"Colonel {g}"},
                        "elements": [{"name": f"Regiment {g}.{e}", "type": kinds[e % 6][0],
                                      "size": kinds[e % 6][1], "upgrades": kinds[e % 6][2]}
                                     for e in range(per_group)]}
                       for g in range(1, groups + 1)]}


def small_force(name, nation):
    return {"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
            "nation": nation, "points_limit": 150, "force_commander": {"name": "General"},
            "groups": [{"name": f"Brigade {g}", "commander": {"name": f"Colonel {g}"},
                        "elements": [{"name": f"Regiment {g}-{e}", "type": "infantry", "size": "medium"}
                                     for e in range(1, 4)]} for g in (1, 2)]}


def campaign_of(port, owner, rival, entries):
    """A started campaign whose log holds `entries` entries (the rest are adjustments)."""
    a, b = Client(port, owner), Client(port, rival)
    r1 = a.call("POST", "/rosters", small_force("Crown", "british"))["id"]
    r2 = b.call("POST", "/rosters", small_force("Congress", "american"))["id"]
    c = a.call("POST", "/campaigns", {"name": f"Bench {entries}", "map": "philadelphia-1777",
                                      "points": 200, "turns": 8})
    a.call("POST", f"/campaigns/{c['id']}/join", {"code": c["invite_code"], "side": 0, "roster_id": r1})
    b.call("POST", f"/campaigns/{c['id']}/join", {"code": c["invite_code"], "side": 1, "roster_id": r2})
    a.call("POST", f"/campaigns/{c['id']}/start")
    have = len(a.call("GET", f"/campaigns/{c['id']}/log")["entries"])
    for i in range(max(0, entries - have)):
        a.call("POST", f"/campaigns/{c['id']}/adjustments",
               {"side": i % 2, "points": 1, "reason": f"bench {i}"})
    return c["id"]


def session_cookie(port):
    """Logs in through the form, as a browser does."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/login")
    res = conn.getresponse()
    page = res.read().decode()
    jar = {}
    for k, v in res.getheaders():
        if k.lower() == "set-cookie":
            name, _, rest = v.partition("=")
            jar[name] = rest.split(";")[0]
    csrf = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    body = urllib.parse.urlencode({"csrf_token": csrf, "email": "bench@example.org", "password": PASSWORD})
    cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
    conn.request("POST", "/login", body, {"content-type": "application/x-www-form-urlencoded", "cookie": cookie})
    res = conn.getresponse()
    res.read()
    for k, v in res.getheaders():
        if k.lower() == "set-cookie" and v.startswith("muster_session="):
            return v.split(";")[0]
    raise SystemExit("login failed")


def page_size(port, path, cookie):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"cookie": cookie})
    res = conn.getresponse()
    body = res.read()
    if res.status != 200:
        raise SystemExit(f"GET {path}: {res.status}")
    return len(body)


def wrk(port, path, cookie, args):
    out = subprocess.run(
        ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}", "--latency",
         "-H", f"Cookie: {cookie}", f"http://127.0.0.1:{port}{path}"],
        check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {p: v for p, v in re.findall(r"\s+(50|99)(?:\.000)?%\s+([\d.]+\w+)", out)}
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise SystemExit(f"{path}: {non2xx.group(1)} failed responses")
    return rps, lat.get("50", "?"), lat.get("99", "?")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", default="10s")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--port", type=int, default=18098)
    ap.add_argument("--postgres", help="a PostgreSQL server URL, e.g. postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--sizes", default="40,500,2000,5000")
    ap.add_argument("--keep-data", action="store_true", help="keep the data directory (its path goes to stderr)")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing (Debian: apt-get install wrk)")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    data = tempfile.mkdtemp()
    env = dict(os.environ, MUSTER_DATA_DIR=data, MUSTER_BIND=f"127.0.0.1:{args.port}", MUSTER_LOG="warn",
               MUSTER_WORK_PER_CALLER="1000")
    backend = "SQLite"
    if args.postgres:
        base = args.postgres.rstrip("/")
        subprocess.run(["psql", base + "/postgres", "-qc", "DROP DATABASE IF EXISTS muster_bench"], check=True)
        subprocess.run(["psql", base + "/postgres", "-qc", "CREATE DATABASE muster_bench"], check=True)
        env["DATABASE_URL"] = base + "/muster_bench"
        backend = "PostgreSQL"
    binary = os.path.join(ROOT, "target/release/muster")
    for email in ("bench@example.org", "rival@example.org"):
        subprocess.run([binary, "user", "create", "--email", email], input=PASSWORD + "\n", env=env,
                       check=True, capture_output=True, text=True)
    server = subprocess.Popen([binary, "serve"], env=env)
    try:
        for _ in range(200):
            try:
                Client(args.port).conn.request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(0.5)
        owner, rival = token(args.port, "bench@example.org"), token(args.port, "rival@example.org")
        cookie = session_cookie(args.port)
        rows = []
        print(f"seeding on {backend} …", file=sys.stderr)
        for n in [int(s) for s in args.sizes.split(",")]:
            cid = campaign_of(args.port, owner, rival, n)
            if args.postgres:
                # A served database has statistics (autovacuum analyses a growing table within
                # a minute); a table filled seconds ago has none, and PostgreSQL's planner then
                # guesses a campaign's log at a few dozen rows and sorts all of it for a page.
                subprocess.run(["psql", env["DATABASE_URL"], "-qc", "ANALYZE"], check=True)
            for label, path in ((f"campaign page, {n} entries", f"/campaigns/{cid}"),
                                (f"log page 1, {n} entries", f"/campaigns/{cid}/log")):
                rows.append((label, page_size(args.port, path, cookie), *wrk(args.port, path, cookie, args)))
                rows.append(("/healthz (same run)", 0, *wrk(args.port, "/healthz", cookie, args)))
                print(rows[-2], rows[-1], file=sys.stderr)
        api = Client(args.port, owner)
        big = None
        for k in range(200):
            rid = api.call("POST", "/rosters", roster(f"List roster {k}", "british", 6, 6, 5000))["id"]
            big = big or rid
        rows.append(("roster list, 200 rosters of 36", page_size(args.port, "/rosters", cookie),
                     *wrk(args.port, "/rosters", cookie, args)))
        rows.append((f"editor, 36 elements", page_size(args.port, f"/rosters/{big}/edit", cookie),
                     *wrk(args.port, f"/rosters/{big}/edit", cookie, args)))
        huge = api.call("POST", "/rosters", roster("Huge", "british", 20, 20, 50000))["id"]
        rows.append(("editor, 400 elements", page_size(args.port, f"/rosters/{huge}/edit", cookie),
                     *wrk(args.port, f"/rosters/{huge}/edit", cookie, args)))
        rows.append(("/healthz (same run)", 0, *wrk(args.port, "/healthz", cookie, args)))
        print(f"| page ({backend}, {args.connections} connections, {args.duration}) | HTML bytes | requests/s | p50 | p99 |")
        print("|---|---|---|---|---|")
        for label, size, rps, p50, p99 in rows:
            print(f"| {label} | {size if size else '—'} | {rps:,.0f} | {p50} | {p99} |")
    finally:
        server.terminate()
        server.wait()
        if args.keep_data:
            print(f"data kept in {data}", file=sys.stderr)
        else:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
