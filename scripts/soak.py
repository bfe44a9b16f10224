#!/usr/bin/env python3
"""A soak of `chopsticks serve`: a mixed load on loopback for a fixed time.

Starts the server (the release binary, or --binary), then for --seconds (1800 by
default; bounded, and by --max-requests too) keeps --clients client threads busy
with a mix of what a real page and real scripts ask:

  positions  GET …/positions/?p=…   random reachable positions of several variants
  strategy   GET …/strategy
  review     POST …/review          a game record (a random legal game)
  puzzles    GET …/puzzles?count=…&seed=…
  value      GET /api/v1/value?expr=…
  bad        malformed or impossible requests, which must be answered 4xx
  slow       a client that sends half a request head and stalls: the server
             must close it (header timeout), not wait for ever

beside --abusive-clients (2) that ask what once exhausted the server (issue 60):

  huge       GET standard.h6.f8/strategy: 442,142 traps, 30 MB of JSON streamed
             (200, or 503 "still computing" while it is computed)
  huge-svg   the same as SVG: refused with 413 and its estimate
  abandoned  a request for a variant's strategy or puzzles, hung up after 0.2 s
  slow-body  a POST announcing 1,000 bytes and sending 10: 408 at the header timeout
  big-body   a POST announcing 300,000 bytes: 413 at once
  malformed  HTTP/0.9, HTTP/2's preface, a NUL in the method: a JSON 4xx/505

and one prober, a process of its own, that asks /healthz every 0.1 s on a new
connection: every answer must come within 100 ms. The client threads run at a
lower priority (nice + 5) than the server and the prober, which share the
machine with them: a slow probe is then the server's.

Every --sample seconds it reads the server's resident memory (VmRSS). At the end
it prints a JSON summary: requests by kind and status, latency percentiles,
resident memory after the warm-up and at the end, and every answer that was not
the client's fault (5xx, a dropped connection on a good request); then a line
PASS or FAIL with the reasons. It fails when there was such an answer, when an
abusive request got another answer than the one it must, when a /healthz took
100 ms or more, when the server's peak resident memory (VmHWM) passed its
--memory and a margin of --margin MiB (64), or when, in a run of 600 s or more,
the resident memory grew by more than --max-growth (a fraction, 0.10 by default)
after the warm-up (the first sixth).

Usage: scripts/soak.py [--seconds 1800] [--clients 16] [--binary target/release/chopsticks]
"""

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

# The good clients' mix: each kind of request and its weight.
MIX = [("positions", 70), ("strategy", 4), ("review", 6), ("puzzles", 4), ("value", 6), ("bad", 10)]
ONLY = None  # --only: the kinds of MIX asked (all by default)

ABUSIVE_KINDS = {"slow", "huge", "huge-svg", "abandoned", "slow-body", "big-body", "malformed"}

VARIANTS = ["standard", "rollover", "simple", "standard.p3", "rahman", "standard.h3.f6"]


def rss_kib(pid, field="VmRSS:"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def read_answer(s, enough=None):
    """The bytes answered on socket `s` until it closes, or until `enough` bytes
    with the whole head among them."""
    got = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
        if enough is not None and len(got) > enough and b"\r\n\r\n" in got:
            break
    return got


def raw(host, port, data, timeout=30, hang_up_after=None):
    """Sends `data` on a new connection; the status code answered (or
    'closed'), or None when hung up on purpose after `hang_up_after` seconds."""
    s = socket.create_connection((host, port), timeout=timeout)
    try:
        s.sendall(data)
        if hang_up_after is not None:
            time.sleep(hang_up_after)
            return None
        # Past 1 MiB with the head in it the status is known; the rest is not needed.
        got = read_answer(s, enough=1 << 20)
        if not got:
            return "closed", b""
        head, _, body = got.partition(b"\r\n\r\n")
        return head.split(b" ")[1].decode(errors="replace"), body
    finally:
        s.close()


def get_bytes(path):
    return f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()


ABANDONED = [f"/api/v1/chopsticks/{v}/{what}" for v in
             ["standard.h4.f7", "standard.h4.f8", "standard.h5.f7", "rollover.h6.f9"]
             for what in ["strategy", "puzzles?count=3"]]


class Abusive(threading.Thread):
    """Asks what once exhausted the server, and checks each answer is the one
    it must be."""

    def __init__(self, host, port, stats, deadline, budget, seed):
        super().__init__(daemon=True)
        self.host, self.port = host, port
        self.stats, self.deadline, self.budget = stats, deadline, budget
        self.rng = random.Random(seed)

    def expect(self, kind, data, allowed, **kw):
        t = time.monotonic()
        try:
            got = raw(self.host, self.port, data, **kw)
        except Exception as e:
            self.stats.add(kind, "dropped", time.monotonic() - t, f"{kind}: {e!r}")
            return
        seconds = time.monotonic() - t
        if got is None:
            self.stats.add(kind, "hung-up", seconds)
            return
        status, body = got
        ok = status in allowed
        if status == "503" and "503" in allowed:
            ok = b"still computing" in body
        self.stats.add(kind, status, seconds, None if ok else f"{kind}: {status} {body[:200]!r}")

    def run(self):
        while time.monotonic() < self.deadline and self.stats.total() < self.budget:
            kind = self.rng.choice(["huge", "huge-svg", "abandoned", "abandoned", "slow-body",
                                    "big-body", "malformed"])
            if kind == "huge":
                self.expect(kind, get_bytes("/api/v1/chopsticks/standard.h6.f8/strategy"), ["200", "503"],
                            timeout=120)
            elif kind == "huge-svg":
                self.expect(kind, get_bytes("/api/v1/chopsticks/standard.h6.f8/strategy?format=svg"),
                            ["413", "503"], timeout=120)
            elif kind == "abandoned":
                self.expect(kind, get_bytes(self.rng.choice(ABANDONED)), [], hang_up_after=0.2)
            elif kind == "slow-body":
                self.expect(kind, b"POST /api/v1/chopsticks/standard/review HTTP/1.1\r\nHost: x\r\n"
                                  b"Content-Length: 1000\r\n\r\ntap 1 1\nta", ["408"], timeout=60)
            elif kind == "big-body":
                self.expect(kind, b"POST /api/v1/chopsticks/standard/review HTTP/1.1\r\nHost: x\r\n"
                                  b"Content-Length: 300000\r\n\r\n", ["413"])
            else:
                self.expect(kind, self.rng.choice([b"GET /\r\n\r\n", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                                                   b"G\0T / HTTP/1.1\r\nHost: x\r\n\r\n"]), ["400", "505"])


def probe(host, port, deadline, out):
    """The prober's loop, in a process of its own: a prober thread beside the
    client threads would wait for Python's interpreter lock, and its latencies
    would be the load generator's, not the server's. Each slow probe is kept
    with its parts (the connection, the answer after it) and how late the
    prober itself woke for it, which tells the server's delay from the load
    generator's machine being too busy to run the prober on time."""
    latencies, failures, slow, woke_late = [], [], [], 0.0
    wake = started = time.monotonic()
    while time.monotonic() < deadline:
        t = time.monotonic()
        late = t - wake
        woke_late = max(woke_late, late)
        connected = None
        try:
            s = socket.create_connection((host, port), timeout=10)
            connected = time.monotonic()
            try:
                s.sendall(get_bytes("/healthz"))
                got = read_answer(s)
            finally:
                s.close()
            status = got.split(b" ")[1].decode(errors="replace") if got else "closed"
            if status != "200":
                failures.append(f"/healthz: {status}")
        except Exception as e:
            failures.append(f"/healthz: {e!r}")
        took = time.monotonic() - t
        latencies.append(took)
        if took >= 0.1:
            slow.append({"at_s": round(t - started, 1), "ms": round(took * 1000, 1),
                         "connect_ms": connected and round((connected - t) * 1000, 1),
                         "prober_woke_late_ms": round(late * 1000, 1)})
        wake = time.monotonic() + 0.1
        time.sleep(0.1)
    out.send((latencies, failures, slow[:50], woke_late))
    out.close()


class Prober:
    """Asks /healthz every 0.1 s on a new connection, from a process of its own
    (see `probe`); keeps the latencies."""

    def __init__(self, host, port, deadline):
        self.latencies = []
        self.failures = []
        self.slow = []
        self.woke_late = 0.0
        self.receiver, sender = multiprocessing.Pipe(duplex=False)
        self.process = multiprocessing.Process(target=probe, args=(host, port, deadline, sender),
                                               daemon=True)
        self.done = False

    def start(self):
        self.process.start()

    def is_alive(self):
        if not self.done and self.receiver.poll():
            self.latencies, self.failures, self.slow, self.woke_late = self.receiver.recv()
            self.done = True
        return not self.done and self.process.is_alive()


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.latencies = []
        self.not_client = []

    def add(self, kind, status, seconds, detail=None):
        with self.lock:
            key = f"{kind} {status}"
            self.counts[key] = self.counts.get(key, 0) + 1
            # Latencies are the good clients': a stalled or abusive request
            # waits on purpose (a header timeout, a 30 MB download).
            if kind not in ABUSIVE_KINDS:
                self.latencies.append(seconds)
            if detail is not None and len(self.not_client) < 50:
                self.not_client.append(detail)

    def total(self):
        with self.lock:
            return sum(self.counts.values())


def request(conn, method, path, body=None):
    headers = {"Connection": "keep-alive"}
    if body is not None:
        headers["Content-Type"] = "text/plain"
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    data = r.read()
    return r.status, data


class Client(threading.Thread):
    def __init__(self, host, port, stats, deadline, budget, seed, slow_only=False):
        super().__init__(daemon=True)
        self.slow_only = slow_only
        self.host, self.port = host, port
        self.stats, self.deadline, self.budget = stats, deadline, budget
        self.rng = random.Random(seed)
        self.conn = None
        # Each variant's start, as the API gives it.
        self.known = {}
        for v in VARIANTS:
            status, data = request(self.connect(), "GET", f"/api/v1/chopsticks/{v}")
            self.known[v] = [json.loads(data)["startPosition"]]

    def connect(self):
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        return self.conn

    def good(self, kind, method, path, body=None):
        t = time.monotonic()
        try:
            status, data = request(self.connect(), method, path, body)
        except Exception as e:  # a dropped connection on a good request
            self.conn = None
            self.stats.add(kind, "dropped", time.monotonic() - t, f"{kind} {path}: {e!r}")
            return None
        seconds = time.monotonic() - t
        if status >= 500:
            self.stats.add(kind, status, seconds, f"{kind} {path}: {status} {data[:200]!r}")
            return None
        self.stats.add(kind, status, seconds)
        if status != 200:
            return None
        try:
            return json.loads(data)
        except ValueError:
            return None

    def bad(self):
        v = self.rng.choice(VARIANTS)
        path = self.rng.choice([
            f"/api/v1/chopsticks/{v}/positions/?p=9x9x",
            f"/api/v1/chopsticks/{v}/positions/?p=" + "1" * 5000,
            "/api/v1/chopsticks/nonsense.h99/positions/?p=1111",
            "/api/v1/chopsticks/standard.h40.f40/positions/?p=1111",
            f"/api/v1/chopsticks/{v}/puzzles?count=abc",
            "/api/v1/value?expr=" + urllib.parse.quote("{{{{{{"),
            "/api/v1/nothing/here",
            f"/api/v1/chopsticks/{v}/review?record=" + urllib.parse.quote("tap 9 9"),
        ])
        t = time.monotonic()
        try:
            status, data = request(self.connect(), "GET", path)
        except Exception as e:
            self.conn = None
            self.stats.add("bad", "dropped", time.monotonic() - t, f"bad {path[:80]}: {e!r}")
            return
        seconds = time.monotonic() - t
        if status >= 500 or status < 400:
            self.stats.add("bad", status, seconds, f"bad {path[:80]}: {status} {data[:200]!r}")
        else:
            self.stats.add("bad", status, seconds)

    def slow(self):
        # Half a request head, then nothing: the server must close it.
        t = time.monotonic()
        s = socket.create_connection((self.host, self.port), timeout=60)
        try:
            s.sendall(b"GET /api/v1/chopsticks/standard/positions/?p=1_1111 HTTP/1.1\r\nHost: x\r\n")
            data = s.recv(4096)  # blocks until the server answers or closes
            seconds = time.monotonic() - t
            status = "closed" if not data else data.split(b" ")[1].decode(errors="replace")
            self.stats.add("slow", status, seconds)
        except socket.timeout:
            self.stats.add("slow", "never-closed", time.monotonic() - t,
                           "slow: the server kept a stalled connection open for 60 s")
        finally:
            s.close()

    def run(self):
        while time.monotonic() < self.deadline and self.stats.total() < self.budget:
            if self.slow_only:
                self.slow()
                continue
            kinds = [(k, w) for k, w in MIX if ONLY is None or k in ONLY]
            kind = self.rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
            v = self.rng.choice(VARIANTS)
            if kind == "positions":
                p = self.rng.choice(self.known[v])
                data = self.good(kind, "GET", f"/api/v1/chopsticks/{v}/positions/?p={urllib.parse.quote(p)}")
                if data and data.get("moves"):
                    nxt = self.rng.choice(data["moves"])["position"]
                    if len(self.known[v]) < 5000:
                        self.known[v].append(nxt)
                    else:
                        self.known[v][self.rng.randrange(5000)] = nxt
            elif kind == "strategy":
                self.good(kind, "GET", f"/api/v1/chopsticks/{self.rng.choice(['standard', 'simple', 'rollover'])}/strategy")
            elif kind == "review":
                self.review(v)
            elif kind == "puzzles":
                self.good(kind, "GET", f"/api/v1/chopsticks/{v}/puzzles?count=5&seed={self.rng.randrange(1000)}")
            elif kind == "value":
                a, b = self.rng.randrange(1, 5), self.rng.randrange(1, 5)
                expr = self.rng.choice([f"(1|{a})_{b + 1}", "{0|^[2]}", f"^ + *{a}", f"({a}|{b})_6 + *"])
                self.good(kind, "GET", "/api/v1/value?expr=" + urllib.parse.quote(expr))
            else:
                self.bad()

    def review(self, v):
        # A random legal game of a few moves, played through the API.
        p = self.known[v][0]
        moves = []
        for _ in range(self.rng.randrange(2, 12)):
            data = self.good("positions", "GET", f"/api/v1/chopsticks/{v}/positions/?p={urllib.parse.quote(p)}")
            if not data or not data.get("moves"):
                break
            m = self.rng.choice(data["moves"])
            moves.append(m["move"])
            p = m["position"]
        record = f"variant {v}\n" + "\n".join(moves) + "\n"
        self.good("review", "POST", f"/api/v1/chopsticks/{v}/review", body=record.encode())


def parse_mib(text):
    m = re.fullmatch(r"\s*([\d.]+)\s*([KMGT]?)i?B?\s*", text, re.I)
    if not m:
        return None
    scale = {"": 1 / (1 << 20), "K": 1 / 1024, "M": 1, "G": 1024, "T": 1 << 20}[m.group(2).upper()]
    return float(m.group(1)) * scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1800)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--slow-clients", type=int, default=4)
    ap.add_argument("--abusive-clients", type=int, default=2)
    ap.add_argument("--margin", type=float, default=64, help="MiB allowed past --memory")
    ap.add_argument("--max-requests", type=int, default=50_000_000)
    ap.add_argument("--warmup", type=float, default=None, help="seconds (default: a sixth of the run)")
    ap.add_argument("--sample", type=float, default=10)
    ap.add_argument("--max-growth", type=float, default=0.10)
    ap.add_argument("--binary", default="target/release/chopsticks")
    ap.add_argument("--memory", default="1G", help="the server's --memory")
    ap.add_argument("--out", default=None, help="also write the summary here")
    ap.add_argument("--only", default=None,
                    help="the good clients ask only these kinds, comma-separated (to find which costs)")
    args = ap.parse_args()
    global ONLY
    if args.only:
        ONLY = set(args.only.split(","))
        unknown = ONLY - {k for k, _ in MIX}
        if unknown:
            sys.exit(f"--only: no kind {', '.join(sorted(unknown))} (the kinds: {', '.join(k for k, _ in MIX)})")
    # The answer cache and the solved variants fill in the first minutes: a
    # short run judges memory only over its second half.
    warmup = args.warmup if args.warmup is not None else (
        args.seconds / 6 if args.seconds >= 600 else args.seconds / 2)

    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--quiet", "--memory", args.memory,
         "--header-timeout", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    m = re.search(r"http://([\d.]+):(\d+)", line)
    if not m:
        server.kill()
        sys.exit(f"the server did not print its address: {line!r} {server.stderr.read()!r}")
    host, port = m.group(1), int(m.group(2))
    threading.Thread(target=lambda: server.stdout.read(), daemon=True).start()

    stats = Stats()
    start = time.monotonic()
    deadline = start + args.seconds
    clients = [Client(host, port, stats, deadline, args.max_requests, seed) for seed in range(args.clients)]
    # Slow clients apart: each holds a stalled connection until the server closes it.
    clients += [Client(host, port, stats, deadline, args.max_requests, 1000 + k, slow_only=True)
                for k in range(args.slow_clients)]
    clients += [Abusive(host, port, stats, deadline, args.max_requests, 2000 + k)
                for k in range(args.abusive_clients)]
    # The prober's process is forked before any client thread runs.
    prober = Prober(host, port, deadline)
    prober.start()
    # The clients run below the server and the prober (nice + 5; on Linux each
    # thread has its own nice value and new threads take their creator's): on
    # one machine the load generator would otherwise take the cores the server
    # answers on, and the latencies would measure the generator.
    os.nice(5)
    for c in clients:
        c.start()
    clients.append(prober)
    samples = []
    while any(c.is_alive() for c in clients):
        time.sleep(min(args.sample, max(1.0, deadline - time.monotonic())))
        if server.poll() is not None:
            break
        samples.append((round(time.monotonic() - start, 1), rss_kib(server.pid), stats.total()))
        print(f"{samples[-1][0]:>8} s  RSS {samples[-1][1] / 1024:8.1f} MiB  {samples[-1][2]:>10} requests",
              file=sys.stderr, flush=True)
    alive = server.poll() is None
    peak_kib = rss_kib(server.pid, "VmHWM:") if alive else None
    if alive:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    seconds = time.monotonic() - start
    lat = sorted(stats.latencies)  # slow clients' waits are not latencies

    def pct(q):
        return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 2) if lat else None

    after_warmup = [s for s in samples if s[0] >= warmup]
    rss_warm = after_warmup[0][1] if after_warmup else None
    rss_end = samples[-1][1] if samples else None
    rss_max = max((s[1] for s in after_warmup), default=None)
    growth = (rss_max - rss_warm) / rss_warm if rss_warm else None
    summary = {
        "seconds": round(seconds, 1),
        "clients": args.clients,
        "requests": stats.total(),
        "requests_per_second": round(stats.total() / seconds, 1),
        "by_kind_and_status": dict(sorted(stats.counts.items())),
        "latency_ms": {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "p999": pct(0.999), "max": pct(1.0)},
        "rss_mib_after_warmup": rss_warm and round(rss_warm / 1024, 1),
        "rss_mib_max_after_warmup": rss_max and round(rss_max / 1024, 1),
        "rss_mib_end": rss_end and round(rss_end / 1024, 1),
        "rss_growth_after_warmup": growth and round(growth, 4),
        "rss_mib_peak": peak_kib and round(peak_kib / 1024, 1),
        "memory_budget": args.memory,
        "healthz": {"probes": len(prober.latencies),
                    "max_ms": round(max(prober.latencies, default=0) * 1000, 2),
                    "over_100_ms": sum(1 for x in prober.latencies if x >= 0.1),
                    "slow": prober.slow,
                    "prober_woke_late_max_ms": round(prober.woke_late * 1000, 1),
                    "failures": prober.failures[:20]},
        "server_survived": alive,
        "server_exit": server.returncode,
        "not_the_clients_fault": stats.not_client,
        "samples": samples,
    }
    text = json.dumps(summary, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    reasons = []
    if not alive:
        reasons.append(f"the server ended during the run (exit {server.returncode})")
    if stats.not_client:
        reasons.append(f"{len(stats.not_client)} answers were not the client's fault (see not_the_clients_fault)")
    slow_probes = summary["healthz"]["over_100_ms"]
    if slow_probes:
        reasons.append(f"{slow_probes} /healthz took 100 ms or more (the slowest {summary['healthz']['max_ms']} ms)")
    if prober.failures:
        reasons.append(f"{len(prober.failures)} /healthz were not answered 200")
    budget_mib = parse_mib(args.memory)
    if peak_kib and budget_mib and peak_kib / 1024 > budget_mib + args.margin:
        reasons.append(f"the server's peak resident memory {peak_kib / 1024:.0f} MiB passed its budget "
                       f"({args.memory}) and {args.margin:.0f} MiB")
    judged = args.seconds >= 600 and len(after_warmup) >= 3
    if judged and growth is not None and growth > args.max_growth:
        reasons.append(f"resident memory grew by {growth:.1%} after the warm-up ({warmup:.0f} s), more than {args.max_growth:.0%}")
    if reasons:
        print("FAIL: " + "; ".join(reasons), file=sys.stderr)
    else:
        memory = (f"resident memory {summary['rss_mib_after_warmup']} MiB after the warm-up, "
                  f"{summary['rss_mib_end']} MiB at the end")
        if not judged:
            memory += " (not judged: the answer cache fills for minutes; run 600 s or more)"
        print(f"PASS: {stats.total()} requests, none failed by the server's fault; {memory}",
              file=sys.stderr)
    sys.exit(1 if reasons else 0)


if __name__ == "__main__":
    main()
