"""Benchmarks of the Python package against the command line (docs/PERFORMANCE.md).

    python crates/python/bench.py solve --variant standard.h8.f8 --runs 3
    python crates/python/bench.py query --db FILE --positions 200
    python crates/python/bench.py table --variant standard.h6.f10 --runs 3

`solve` times the same solve from Python (`ct.solve`, a new process per
run) and from the command line (`chopsticks solve --no-reachable`, which adds
the summary's start and counts over the index), interleaved, and compares the
solve phase each reports (`solve_seconds`) and the whole call. `query` opens a
saved file once and times `Solution.query` on positions spread over the index:
the first query of each position (its blocks read from the page cache and
checked), then the same queries again (warm). `table` solves once and
times the whole table as arrays (`to_numpy()`), in chunks of 2^20 rows
(`chunks()`), the first 2^22 rows as a DataFrame (`to_pandas()`), and the
chunks of the same table saved and read in place (`ct.load`), in rows a
second, each run in turn. Prints JSON.
"""

import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("CHOPSTICKS_BIN", str(ROOT / "target" / "release" / "chopsticks"))

PY_SOLVE = """
import json, sys, time
import chopsticks_toolkit as ct
t = time.perf_counter()
s = ct.solve(sys.argv[1])
wall = time.perf_counter() - t
print(json.dumps({"wall": wall, "solve_seconds": s.solve_seconds, "start": s.query()["remoteness"]}))
"""


def bench_solve(variant, runs):
    python, cli = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", PY_SOLVE, variant], capture_output=True, text=True, check=True)
        python.append(json.loads(out.stdout))
        t = time.perf_counter()
        out = subprocess.run(
            [BIN, "solve", "--variant", variant, "--no-reachable", "--json", "--quiet"],
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - t
        d = json.loads(out.stdout)
        cli.append({"wall": wall, "solve_seconds": d["solve_seconds"], "start": d["start"]["remoteness"]})
    assert {r["start"] for r in python} == {r["start"] for r in cli}
    med = lambda rows, k: statistics.median(r[k] for r in rows)
    return {
        "variant": variant,
        "runs": runs,
        "python_solve_seconds": [r["solve_seconds"] for r in python],
        "cli_solve_seconds": [r["solve_seconds"] for r in cli],
        "python_call_seconds": [r["wall"] for r in python],
        "cli_process_seconds": [r["wall"] for r in cli],
        "solve_ratio_median": med(python, "solve_seconds") / med(cli, "solve_seconds"),
    }


def positions_of(rules, count, seed):
    """Positions spread over the index: random hands, both players alive."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        hands = [sorted(rng.randrange(rules.fingers) for _ in range(h)) for h in rules.hands]
        if not all(any(hand) for hand in hands):
            continue
        sep = "-" if rules.players > 2 or rules.fingers > 10 else ""
        text = f"{rng.randrange(rules.players) + 1}_" + sep.join("".join(map(str, h)) for h in hands)
        found.append(text)
    return found


def bench_query(db, count, seed):
    import chopsticks_toolkit as ct

    t = time.perf_counter()
    solution = ct.load(db)
    opened = time.perf_counter() - t
    positions = positions_of(solution.ruleset, count, seed)
    first, warm = [], []
    for p in positions:
        t = time.perf_counter()
        solution.query(p)
        first.append(time.perf_counter() - t)
    for p in positions:
        t = time.perf_counter()
        solution.query(p)
        warm.append(time.perf_counter() - t)
    ms = lambda xs: {
        "median_ms": 1000 * statistics.median(xs),
        "p90_ms": 1000 * sorted(xs)[int(0.9 * len(xs))],
        "worst_ms": 1000 * max(xs),
    }
    return {
        "db": str(db),
        "variant": solution.variant,
        "positions": solution.positions,
        "queries": count,
        "open_seconds": opened,
        "first": ms(first),
        "warm": ms(warm),
    }


def bench_table(variant, runs):
    import tempfile

    import chopsticks_toolkit as ct

    s = ct.solve(variant, quiet=True)
    n = s.positions
    path = os.path.join(tempfile.mkdtemp(), "table.sol")
    s.save(path)
    loaded = ct.load(path)
    rows = min(n, 1 << 22)

    def rate(count, f):
        t = time.perf_counter()
        f()
        return count / (time.perf_counter() - t)

    kinds = {
        "to_numpy": (n, lambda: s.to_numpy()),
        "chunks": (n, lambda: sum(len(c["index"]) for c in s.chunks(1 << 20))),
        "to_pandas": (rows, lambda: s.to_pandas(0, rows)),
        "loaded_chunks": (n, lambda: sum(len(c["index"]) for c in loaded.chunks(1 << 20))),
    }
    runs_of = {k: [] for k in kinds}
    for _ in range(runs):
        for k, (count, f) in kinds.items():
            runs_of[k].append(rate(count, f))
    os.remove(path)
    return {
        "variant": variant,
        "positions": n,
        "rows_per_second": {
            k: {"runs": [round(r) for r in v], "median": round(statistics.median(v))}
            for k, v in runs_of.items()
        },
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("solve")
    s.add_argument("--variant", default="standard.h8.f8")
    s.add_argument("--runs", type=int, default=3)
    q = sub.add_parser("query")
    q.add_argument("--db", required=True)
    q.add_argument("--positions", type=int, default=200)
    q.add_argument("--seed", type=int, default=1)
    t = sub.add_parser("table")
    t.add_argument("--variant", default="standard.h6.f10")
    t.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.what == "solve":
        print(json.dumps(bench_solve(args.variant, args.runs), indent=2))
    elif args.what == "table":
        print(json.dumps(bench_table(args.variant, args.runs), indent=2))
    else:
        print(json.dumps(bench_query(args.db, args.positions, args.seed), indent=2))


if __name__ == "__main__":
    main()
