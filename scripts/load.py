#!/usr/bin/env python3
"""Load test for a running Muster server: concurrent roster editors and campaign actions.

Starts nothing itself. Against BASE_URL it registers a few accounts, creates rosters and a
campaign, then for SECONDS runs

  * EDITORS threads that edit shared rosters through the API with version checks
    (GET, change the name, PUT with the version read; a stale version gets 409), and
  * ACTORS threads that act on one campaign: the first two each give orders for their own force
    (alternating hold and a move), the others make organiser adjustments with a unique reason.

It prints requests, status counts (2xx / 409 / 429 / 503 / other 4xx / other 5xx / network
errors), p50/p99 latency per kind, and lost writes: at the end every acknowledged write is read
back (each roster's final version and name, every acknowledged adjustment exactly once in the
campaign log and in the forces' totals, each force's last acknowledged order). Exit status 1 when
a write was lost or the set-up failed, else 0.

Python 3 standard library only. Registration is throttled per client address (10 an hour); a
run registers four accounts. For many runs against one server, start it with
MUSTER_TRUSTED_PROXY=127.0.0.1 and pass --forwarded-for so each run registers from its own
made-up address.

    python3 scripts/load.py http://127.0.0.1:8080 --editors 16 --actors 16 --seconds 30
"""

import argparse
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse
from collections import Counter, defaultdict

PASSWORD = "load-test-password-1"


class Client:
    """One keep-alive HTTP connection, reopened after any network error."""

    def __init__(self, base, timeout, forwarded_for=None):
        u = urllib.parse.urlsplit(base)
        self.https = u.scheme == "https"
        self.host = u.hostname
        self.port = u.port or (443 if self.https else 80)
        self.prefix = u.path.rstrip("/")
        self.timeout = timeout
        self.forwarded_for = forwarded_for
        self.conn = None

    def _connect(self):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        self.conn = cls(self.host, self.port, timeout=self.timeout)

    def call(self, method, path, body=None, token=None, api=True):
        """`path` under /api/v1 (or from the root with api=False). Returns (status, parsed
        JSON or text, seconds); status 0 for a network error."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if self.forwarded_for:
            headers["X-Forwarded-For"] = self.forwarded_for
        started = time.monotonic()
        reused = self.conn is not None
        try:
            if self.conn is None:
                self._connect()
            self.conn.request(method, self.prefix + ("/api/v1" if api else "") + path, body=data, headers=headers)
            res = self.conn.getresponse()
            raw = res.read()
            status = res.status
            if res.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
        except (OSError, http.client.HTTPException) as e:
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            if reused and method == "GET":
                # The server may have closed an idle keep-alive connection; a read is safe to
                # repeat on a fresh one (a write is not: it may have happened).
                return self.call(method, path, body, token, api)
            return 0, str(e), time.monotonic() - started
        elapsed = time.monotonic() - started
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        return status, parsed, elapsed


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.status = Counter()
        self.latency = defaultdict(list)
        self.by_kind = defaultdict(Counter)
        self.errors = Counter()

    def record(self, kind, status, seconds, body):
        with self.lock:
            self.status[status] += 1
            self.latency[kind].append(seconds)
            self.by_kind[kind][bucket(status)] += 1
            if status == 0 or status >= 500:
                message = body if isinstance(body, str) else json.dumps(body)
                self.errors[f"{kind} {status}: {message[:120]}"] += 1


def bucket(status):
    if status == 0:
        return "network"
    if 200 <= status < 300:
        return "2xx"
    if status in (409, 429, 503):
        return str(status)
    if 400 <= status < 500:
        return "other 4xx"
    return "other 5xx" if status >= 500 else "other"


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def lotf_roster(name, nation):
    def element(n):
        return {"name": f"{name} {n}", "type": "infantry", "size": "medium"}

    return {
        "format": "muster.lotf.roster/1",
        "name": name,
        "war": "american_revolution",
        "nation": nation,
        "points_limit": 150,
        "force_commander": {"name": f"{name} general"},
        "groups": [
            {"name": "Left", "commander": {"name": f"{name} left"},
             "elements": [element("1st"), element("2nd"), element("3rd")]},
            {"name": "Right", "commander": {"name": f"{name} right"},
             "elements": [element("4th"), element("5th"), element("6th")]},
        ],
    }


class SetupError(Exception):
    pass


def must(result, what, expect=(200, 201)):
    status, body, _ = result
    if status not in expect:
        raise SetupError(f"{what}: {status} {body}")
    return body


def register(client, email):
    must(client.call("POST", "/users", {"email": email, "password": PASSWORD}),
         f"register {email}", (201,))
    body = must(client.call("POST", "/auth/token", {"email": email, "password": PASSWORD}),
                f"token for {email}")
    return body["token"]


def set_up(args, client, tag):
    """Accounts, rosters and a started campaign; returns what the workers need."""
    emails = [f"load-{tag}-{who}@example.org" for who in ("editor", "organiser", "rebel", "loyal")]
    tokens = {e.split("-")[2].split("@")[0]: register(client, e) for e in emails}
    rosters = []
    for i in range(args.rosters):
        body = must(client.call("POST", "/rosters", lotf_roster(f"Load {tag} roster {i}", "american"),
                                tokens["editor"]), "create roster", (201,))
        rosters.append(body["id"])
    created = must(client.call("POST", "/campaigns",
                               {"name": f"Load {tag}", "map": "philadelphia-1777", "points": 200,
                                "turns": 8}, tokens["organiser"]), "create campaign", (201,))
    cid, code = created["id"], created["invite_code"]
    forces = {}
    # The organiser (f1) and the rebel (f2) give orders; the loyalist (f3) never does, so the
    # turn never closes by itself while the orders come in.
    for who, side, nation in (("organiser", 0, "british"), ("rebel", 1, "american"),
                              ("loyal", 0, "british")):
        r = must(client.call("POST", "/rosters", lotf_roster(f"Load {tag} {who}", nation),
                             tokens[who]), f"roster of {who}", (201,))
        joined = must(client.call("POST", f"/campaigns/{cid}/join",
                                  {"code": code, "side": side, "roster_id": r["id"]}, tokens[who]),
                      f"{who} joins", (201,))
        forces[who] = joined["my_force"]
    must(client.call("POST", f"/campaigns/{cid}/start", None, tokens["organiser"]), "start")
    campaign_map = must(client.call("GET", f"/campaigns/{cid}/map", None, tokens["organiser"]),
                        "map")
    return tokens, rosters, cid, forces, campaign_map


def routes_from(campaign_map, force):
    place = next((f["place"] for f in campaign_map.get("forces", []) if f.get("id") == force), None)
    return [r["id"] for r in campaign_map["routes"] if place in (r["from"], r["to"])]


def editor(k, args, stop, stats, tokens, rosters, acked, acked_lock):
    client = Client(args.base_url, args.timeout, args.forwarded_for)
    rng = random.Random(k)
    known = {}
    seq = 0
    while not stop.is_set():
        rid = rng.choice(rosters)
        # Half the time the editor trusts the version it last saw, which may be stale.
        if rid not in known or rng.random() < 0.5:
            status, body, t = client.call("GET", f"/rosters/{rid}", None, tokens["editor"])
            stats.record("roster get", status, t, body)
            if status != 200:
                continue
            known[rid] = (body["version"], body["document"])
        version, document = known[rid]
        seq += 1
        name = f"Load e{k} w{seq}"
        document = dict(document, name=name)
        status, body, t = client.call("PUT", f"/rosters/{rid}",
                                      {"version": version, "document": document}, tokens["editor"])
        stats.record("roster put", status, t, body)
        if status == 200:
            with acked_lock:
                acked["rosters"].append((rid, body["version"], name))
            known[rid] = (body["version"], body["document"])
        elif status == 409:
            known.pop(rid, None)
        elif status == 0 or status >= 500:
            # The write may or may not have happened: never counted as acknowledged.
            known.pop(rid, None)


def actor(k, args, stop, stats, tokens, cid, forces, campaign_map, acked, acked_lock):
    client = Client(args.base_url, args.timeout, args.forwarded_for)
    rng = random.Random(1000 + k)
    orderers = [("organiser", forces["organiser"]), ("rebel", forces["rebel"])]
    seq = 0
    while not stop.is_set():
        seq += 1
        if k < len(orderers) and not args.no_orders:
            who, force = orderers[k]
            routes = routes_from(campaign_map, force)
            order = ({"order": "move", "route": rng.choice(routes)} if routes and seq % 2
                     else {"order": "hold"})
            status, body, t = client.call("POST", f"/campaigns/{cid}/orders",
                                          {"force": force, "order": order}, tokens[who])
            stats.record("order", status, t, body)
            if status == 200:
                # One thread per force: its last acknowledged order is the one that must stand.
                with acked_lock:
                    acked["orders"][force] = (who, order)
        else:
            force = rng.choice(list(forces.values()))
            points = rng.choice([-3, -2, -1, 1, 2, 3])
            reason = f"load a{k} n{seq}"
            status, body, t = client.call("POST", f"/campaigns/{cid}/adjustments",
                                          {"force": force, "points": points, "reason": reason},
                                          tokens["organiser"])
            stats.record("adjustment", status, t, body)
            if status == 200:
                with acked_lock:
                    acked["adjustments"].append((reason, force, points))
            elif status == 0 or status >= 500:
                with acked_lock:
                    acked["unsure_adjustments"][reason] = (force, points)


def verify(args, client, tokens, cid, forces, acked):
    """Reads back every acknowledged write; returns a list of lost writes in words."""
    lost = []
    # Rosters: each acknowledged save made a distinct new version, and the last one stands.
    by_roster = defaultdict(list)
    for rid, version, name in acked["rosters"]:
        by_roster[rid].append((version, name))
    for rid, saves in by_roster.items():
        versions = Counter(v for v, _ in saves)
        for v, n in versions.items():
            if n > 1:
                lost.append(f"roster {rid}: {n} saves were all acknowledged as version {v}")
        status, body, _ = client.call("GET", f"/rosters/{rid}", None, tokens["editor"])
        if status != 200:
            lost.append(f"roster {rid}: cannot be read back ({status})")
            continue
        top_version, top_name = max(saves)
        if body["version"] < top_version:
            lost.append(f"roster {rid}: at version {body['version']}, "
                        f"but version {top_version} was acknowledged")
        elif body["version"] == top_version and body["document"]["name"] != top_name:
            lost.append(f"roster {rid}: version {top_version} is named "
                        f"{body['document']['name']!r}, not {top_name!r}")
    # Adjustments: every acknowledged one in the log exactly once, and in the forces' totals.
    status, log, _ = client.call("GET", f"/campaigns/{cid}/log", None, tokens["organiser"])
    if status != 200:
        return lost + [f"campaign log cannot be read ({status})"], 0
    logged = Counter(e["event"].get("reason") for e in log["entries"]
                     if isinstance(e.get("event"), dict) and e.get("kind") == "adjusted")
    applied_unsure = 0
    for reason, _, _ in acked["adjustments"]:
        if logged[reason] != 1:
            lost.append(f"adjustment {reason!r} is in the log {logged[reason]} times")
    expected = Counter()
    for _, force, points in acked["adjustments"]:
        expected[force] += points
    for reason, (force, points) in acked["unsure_adjustments"].items():
        if logged[reason] == 1:
            expected[force] += points
            applied_unsure += 1
    for force in forces.values():
        status, detail, _ = client.call("GET", f"/campaigns/{cid}/forces/{force}", None,
                                        tokens["organiser"])
        if status != 200:
            lost.append(f"force {force} cannot be read back ({status})")
        elif detail["adjustment"] != expected[force]:
            lost.append(f"force {force}: adjustments total {detail['adjustment']}, "
                        f"acknowledged {expected[force]}")
    # Orders: each force's last acknowledged order stands.
    for force, (who, order) in acked["orders"].items():
        status, body, _ = client.call("GET", f"/campaigns/{cid}/orders", None, tokens[who])
        if status != 200:
            lost.append(f"orders of {force} cannot be read back ({status})")
        elif body["orders"]["mine"] != order:
            lost.append(f"force {force}: the standing order is {body['orders']['mine']}, "
                        f"the last acknowledged {order}")
    return lost, applied_unsure


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base_url", help="e.g. http://127.0.0.1:8080")
    p.add_argument("--editors", type=int, default=8, help="concurrent roster editors")
    p.add_argument("--actors", type=int, default=8, help="concurrent campaign actors")
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--rosters", type=int, default=4, help="rosters the editors share")
    p.add_argument("--timeout", type=float, default=30, help="seconds before a request fails")
    p.add_argument("--no-orders", action="store_true", help="campaign actors only adjust")
    p.add_argument("--forwarded-for", metavar="ADDRESS",
                   help="X-Forwarded-For on every request (server run with MUSTER_TRUSTED_PROXY)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args()

    tag = f"{int(time.time())}{random.randrange(1000):03d}"
    client = Client(args.base_url, args.timeout, args.forwarded_for)
    try:
        tokens, rosters, cid, forces, campaign_map = set_up(args, client, tag)
    except SetupError as e:
        print(f"set-up failed: {e}", file=sys.stderr)
        return 1

    stats = Stats()
    stop = threading.Event()
    acked = {"rosters": [], "adjustments": [], "orders": {}, "unsure_adjustments": {}}
    acked_lock = threading.Lock()
    threads = [threading.Thread(target=editor,
                                args=(k, args, stop, stats, tokens, rosters, acked, acked_lock))
               for k in range(args.editors)]
    threads += [threading.Thread(target=actor,
                                 args=(k, args, stop, stats, tokens, cid, forces, campaign_map,
                                       acked, acked_lock))
                for k in range(args.actors)]
    started = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started

    lost, applied_unsure = verify(args, client, tokens, cid, forces, acked)
    buckets = Counter()
    for status, n in stats.status.items():
        buckets[bucket(status)] += n
    total = sum(buckets.values())
    figures = {
        "base_url": args.base_url,
        "editors": args.editors,
        "actors": args.actors,
        "seconds": round(elapsed, 1),
        "requests": total,
        "requests_per_second": round(total / elapsed, 1) if elapsed else 0,
        "status": {k: buckets.get(k, 0) for k in
                   ("2xx", "409", "429", "503", "other 4xx", "other 5xx", "network")},
        "by_kind": {kind: {"n": len(v), "p50_ms": round(percentile(v, 50) * 1000, 1),
                           "p99_ms": round(percentile(v, 99) * 1000, 1),
                           "status": dict(stats.by_kind[kind])}
                    for kind, v in sorted(stats.latency.items())},
        "acknowledged": {"roster saves": len(acked["rosters"]),
                         "adjustments": len(acked["adjustments"]),
                         "forces with orders": len(acked["orders"])},
        "unacknowledged adjustments found applied": applied_unsure,
        "lost_writes": len(lost),
        "lost": lost[:20],
        "errors": dict(stats.errors.most_common(8)),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{total} requests in {elapsed:.1f} s ({figures['requests_per_second']}/s), "
              f"{args.editors} editors, {args.actors} campaign actors against {args.base_url}")
        print("status: " + ", ".join(f"{k} {v}" for k, v in figures["status"].items()))
        for kind, k in figures["by_kind"].items():
            statuses = ", ".join(f"{b} {n}" for b, n in sorted(k["status"].items()))
            print(f"  {kind:<11} n={k['n']:<6} p50 {k['p50_ms']:>7} ms  p99 {k['p99_ms']:>7} ms"
                  f"  ({statuses})")
        print("acknowledged: " + ", ".join(f"{k} {v}" for k, v in figures["acknowledged"].items()))
        print(f"lost writes: {len(lost)}")
        for line in lost[:20]:
            print(f"  {line}")
        for message, n in figures["errors"].items():
            print(f"  {n} x {message}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
