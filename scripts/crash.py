#!/usr/bin/env python3
"""Crash test: kill -9 a Muster server mid-write, restart it, and check nothing acknowledged is lost.

Starts the server binary itself (default target/debug/muster) on a fresh SQLite file in a
temporary folder, or on the PostgreSQL database named by --database-url (it should be empty:
a scratch database). WRITERS threads create rosters, edit shared rosters with version checks
and make campaign adjustments without pause; every KILL_EVERY seconds (jittered) the server is
killed with SIGKILL while requests are in flight, then started again on the same database.
While it is down, a SQLite file gets `PRAGMA integrity_check` and `PRAGMA foreign_key_check`.
At the end every acknowledged write is read back: each created roster with its name, each
roster's last acknowledged version, each acknowledged adjustment exactly once in the campaign
log and in the forces' totals. Exit status 1 when anything is lost or corrupt.

Python 3 standard library only.

    cargo build && python3 scripts/crash.py --kills 6
    python3 scripts/crash.py --database-url postgres://postgres@127.0.0.1:5432/muster_crash
"""

import argparse
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load  # noqa: E402  (the same client, set-up and read-back as the load script)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, env, log_path):
        self.binary, self.env, self.log_path = binary, env, log_path
        self.proc = None

    def start(self, base_url, timeout=60):
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([self.binary, "serve"], env=self.env, stdout=log,
                                     stderr=subprocess.STDOUT)
        client = load.Client(base_url, 2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; "
                                   f"see {self.log_path}")
            status, _, _ = client.call("GET", "/healthz", api=False)
            if status == 200:
                return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer /healthz in {timeout} s")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def integrity(path):
    """The SQLite file's own checks, run while no server has it open."""
    conn = sqlite3.connect(path)
    try:
        result = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        foreign = conn.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        conn.close()
    problems = [] if result == ["ok"] else [f"integrity_check: {result[:5]}"]
    if foreign:
        problems.append(f"foreign_key_check: {foreign[:5]}")
    return problems


def writer(k, base_url, stop, inflight, tokens, rosters, cid, forces, acked, lock, statuses):
    client = load.Client(base_url, 10)
    rng = random.Random(k)
    seq = 0
    while not stop.is_set():
        seq += 1
        op = rng.choice(["create", "edit", "adjust"])
        with lock:
            inflight[0] += 1
        try:
            if op == "create":
                name = f"Crash w{k} n{seq}"
                status, body, _ = client.call("POST", "/rosters", load.lotf_roster(name, "british"),
                                              tokens["editor"])
                if status == 201:
                    with lock:
                        acked["created"].append((body["id"], name))
            elif op == "edit":
                rid = rng.choice(rosters)
                status, body, _ = client.call("GET", f"/rosters/{rid}", None, tokens["editor"])
                if status == 200:
                    name = f"Crash e{k} n{seq}"
                    doc = dict(body["document"], name=name)
                    status, body, _ = client.call("PUT", f"/rosters/{rid}",
                                                  {"version": body["version"], "document": doc},
                                                  tokens["editor"])
                    if status == 200:
                        with lock:
                            acked["rosters"].append((rid, body["version"], name))
            else:
                force = rng.choice(list(forces.values()))
                points = rng.choice([-2, -1, 1, 2])
                reason = f"crash w{k} n{seq}"
                status, body, _ = client.call("POST", f"/campaigns/{cid}/adjustments",
                                              {"force": force, "points": points, "reason": reason},
                                              tokens["organiser"])
                if status == 200:
                    with lock:
                        acked["adjustments"].append((reason, force, points))
                elif status == 0 or status >= 500:
                    with lock:
                        acked["unsure_adjustments"][reason] = (force, points)
        finally:
            with lock:
                inflight[0] -= 1
                statuses[load.bucket(status)] += 1
        if status == 0:
            time.sleep(0.05)  # the server is down: do not spin


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", default="target/debug/muster")
    p.add_argument("--database-url", help="a scratch PostgreSQL database (default: SQLite)")
    p.add_argument("--kills", type=int, default=6)
    p.add_argument("--kill-every", type=float, default=4.0, help="seconds between kills (±50%%)")
    p.add_argument("--writers", type=int, default=8)
    p.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = p.parse_args()

    tmp = tempfile.mkdtemp(prefix="muster-crash-")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    db_path = os.path.join(tmp, "muster.db")
    env = dict(os.environ, MUSTER_BIND=f"127.0.0.1:{port}", MUSTER_DATA_DIR=tmp,
               DATABASE_URL=args.database_url or db_path, MUSTER_LOG="warn",
               MUSTER_JWT_SECRET="crash-test-secret-that-is-long-enough-0123456789")
    server = Server(args.binary, env, os.path.join(tmp, "server.log"))
    server.start(base_url)
    backend = "PostgreSQL" if args.database_url else "SQLite"
    print(f"{backend}: server on {base_url}, files in {tmp}")

    setup_args = argparse.Namespace(rosters=4)
    tag = f"{int(time.time())}{random.randrange(1000):03d}"
    tokens, rosters, cid, forces, _ = load.set_up(setup_args, load.Client(base_url, 30), tag)

    acked = {"created": [], "rosters": [], "adjustments": [], "orders": {},
             "unsure_adjustments": {}}
    lock = threading.Lock()
    inflight = [0]
    statuses = Counter()
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(k, base_url, stop, inflight, tokens, rosters,
                                                     cid, forces, acked, lock, statuses))
               for k in range(args.writers)]
    for t in threads:
        t.start()
    problems = []
    in_flight_at_kill = []
    restart_seconds = []
    for n in range(args.kills):
        time.sleep(args.kill_every * random.uniform(0.5, 1.5))
        with lock:
            in_flight_at_kill.append(inflight[0])
        server.kill()
        if not args.database_url:
            for problem in integrity(db_path):
                problems.append(f"after kill {n + 1}: {problem}")
        started = time.monotonic()
        server.start(base_url)
        restart_seconds.append(time.monotonic() - started)
    time.sleep(args.kill_every)
    stop.set()
    for t in threads:
        t.join()

    client = load.Client(base_url, 30)
    lost, applied_unsure = load.verify(None, client, tokens, cid, forces, acked)
    for rid, name in acked["created"]:
        status, body, _ = client.call("GET", f"/rosters/{rid}", None, tokens["editor"])
        if status != 200:
            lost.append(f"created roster {rid} ({name}) is gone ({status})")
        elif body["version"] == 1 and body["document"]["name"] != name:
            lost.append(f"created roster {rid} is named {body['document']['name']!r}, not {name!r}")
    server.kill()
    if not args.database_url:
        problems += [f"at the end: {p}" for p in integrity(db_path)]

    print(f"{args.kills} kills with {in_flight_at_kill} requests in flight; "
          f"restarts took {', '.join(f'{s:.1f}' for s in restart_seconds)} s")
    print("answers: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    print(f"acknowledged: {len(acked['created'])} roster creations, "
          f"{len(acked['rosters'])} roster saves, {len(acked['adjustments'])} adjustments; "
          f"{applied_unsure} unacknowledged adjustments were applied")
    print(f"integrity problems: {len(problems)}")
    for line in problems:
        print(f"  {line}")
    print(f"lost writes: {len(lost)}")
    for line in lost[:20]:
        print(f"  {line}")
    if not args.keep and not problems and not lost:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if problems or lost else 0


if __name__ == "__main__":
    sys.exit(main())
