#!/usr/bin/env python3
"""One page measured on two builds at once (issue 17's "side by side"): each build serves its own
data directory (make them with `benches/history.py --keep-data`, run from each build's checkout),
and wrk measures the page and /healthz on each in alternating rounds, so both see the same machine.

Usage: python3 benches/side_by_side.py BEFORE_BINARY BEFORE_DATA AFTER_BINARY AFTER_DATA
       [--path /rosters] [--rounds 3] [--duration 8s] [--connections 16]
The data directories' accounts are history.py's (bench@example.org). Needs wrk.
"""

import argparse
import os
import subprocess
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import history  # noqa: E402  (the same login and wrk helpers)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before_binary")
    ap.add_argument("before_data")
    ap.add_argument("after_binary")
    ap.add_argument("after_data")
    ap.add_argument("--path", default="/rosters")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", default="8s")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    builds = (("before", args.before_binary, args.before_data, 18201),
              ("after", args.after_binary, args.after_data, 18202))
    servers = []
    for _, binary, data, port in builds:
        env = dict(os.environ, MUSTER_DATA_DIR=data, MUSTER_BIND=f"127.0.0.1:{port}", MUSTER_LOG="warn")
        servers.append(subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.DEVNULL))
    try:
        time.sleep(2)
        cookies = {name: history.session_cookie(port) for name, _, _, port in builds}
        print(f"| round | build | HTML bytes | {args.path} requests/s | p50 | p99 | /healthz requests/s |")
        print("|---|---|---|---|---|---|---|")
        for k in range(args.rounds):
            for name, _, _, port in builds:
                size = history.page_size(port, args.path, cookies[name])
                rps, p50, p99 = history.wrk(port, args.path, cookies[name], args)
                healthz = history.wrk(port, "/healthz", cookies[name], args)[0]
                print(f"| {k + 1} | {name} | {size} | {rps:,.0f} | {p50} | {p99} | {healthz:,.0f} |", flush=True)
    finally:
        for s in servers:
            s.terminate()


if __name__ == "__main__":
    main()
