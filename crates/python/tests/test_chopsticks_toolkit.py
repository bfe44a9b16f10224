"""Tests of the Python package, as a notebook user would call it.

The package must answer what the command line answers: several tests run
`chopsticks … --json` (the binary `cargo test --release` builds, or the one
named by $CHOPSTICKS_BIN) and compare whole documents.
"""

import json
import os
import pathlib
import subprocess
import sys
import threading
import time

import pytest

import chopsticks_toolkit as ct

ROOT = pathlib.Path(__file__).resolve().parents[3]


def binary():
    path = pathlib.Path(os.environ.get("CHOPSTICKS_BIN", ROOT / "target" / "release" / "chopsticks"))
    if not path.is_file():
        pytest.fail(f"the command line {path} is missing: run `cargo build --release` first")
    return str(path)


def cli(*args, stdin=None):
    """The command line's JSON for `args`."""
    out = subprocess.run(
        [binary(), *args, "--json"], input=stdin, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def cli_error(*args):
    """The command line's error message for `args` (it must fail)."""
    out = subprocess.run([binary(), *args], capture_output=True, text=True)
    assert out.returncode != 0
    return out.stderr


@pytest.fixture(scope="module")
def standard():
    return ct.solve("standard")


# The first lines a user types.
def test_the_start_of_the_standard_game_is_a_win_in_23(standard):
    q = ct.solve("standard").query("1111")
    assert (q["value"], q["remoteness"]) == ("win", 23)
    assert q["position"] == "1_1111" and q["player"] == 1
    assert standard.outcome() == {"position": "1_1111", "player": 1, "value": "win", "remoteness": 23}
    assert standard.summary()["start"] == {"value": "win", "remoteness": 23}


@pytest.mark.parametrize(
    "variant, position",
    [
        ("standard", "1111"),
        ("standard", "2_1213"),
        ("standard", "(1,2|1,3)_4"),
        ("rollover", "12-13"),
        ("simple", "1_1111"),
        ("standard.p3", "1_11-11-11"),
        ("standard.p4.teams", "3_11-12-11-13"),
        ("standard.misere", "1_0111"),
    ],
)
def test_query_is_the_command_lines_query(variant, position):
    solution = ct.solve(variant)
    assert solution.query(position) == cli("query", position, "--variant", variant)
    assert solution.query(position, lines=True, notation="dashed") == cli(
        "query", position, "--variant", variant, "--line", "--notation", "dashed"
    )


def test_moves_review_puzzles_and_summary_are_the_command_lines(standard, tmp_path):
    assert ct.moves("1_1213") == cli("moves", "1_1213")
    assert ct.Ruleset("rollover.h3").moves("111111", notation="compact") == cli(
        "moves", "111111", "--variant", "rollover.h3", "--notation", "compact"
    )
    record = "variant standard\n1. tap 1→1\n2. tap 2→1\n3. tap 1→2\n4. tap 1→1\n"
    game = tmp_path / "game.txt"
    game.write_text(record)
    assert standard.review(record) == cli("review", str(game))
    # A list of moves is a record without a variant line (the solution's).
    bare = tmp_path / "bare.txt"
    bare.write_text("tap 1→1\ntap 2→1\ntap 1→2\ntap 1→1\n")
    assert standard.review(["tap 1→1", "tap 2→1", "tap 1→2", "tap 1→1"]) == cli("review", str(bare))
    assert standard.review(record, mistakes_only=True, lines=False) == cli(
        "review", str(game), "--mistakes", "--no-lines"
    )
    assert standard.puzzles(5, seed=7, kind="win", difficulty=(2, 4)) == cli(
        "puzzles", "--count", "5", "--seed", "7", "--kind", "win", "--difficulty", "2-4"
    )
    puzzle = standard.puzzles(1)["puzzles"][0]["position"]
    assert standard.puzzle(puzzle, hide_answers=True) == cli("puzzles", "--position", puzzle, "--hide-answers")
    summary = standard.summary()
    solved = cli("solve")
    for key, value in summary.items():
        if key not in ("solve_seconds",):
            assert solved[key] == value, key


def test_values_are_the_command_lines():
    for expression, args in [
        ("(1|1)_4", []),
        ("(1,1|2)_4 + (1|1)_12", []),
        ("{0|^[2]}", ["--details", "--uptimal"]),
        ("(1|1)_4 <= 0", []),
        ("(1|1)_4", ["--variant", "rollover.f5", "--details"]),
    ]:
        py = ct.value(
            expression,
            "rollover.f5" if "rollover.f5" in args else None,
            details="--details" in args,
            uptimal="--uptimal" in args,
        )
        assert py == cli("value", expression, *args), expression
    assert ct.value("(1|1)_4")["value"] == "*"
    assert ct.value("(1|1)_4 + *")["value"] == "0"


def test_positions_in_every_notation_read_back():
    rules = ct.Ruleset("standard")
    p = rules.position("2_1213")
    assert p["position"] == "2_1213" and p["player"] == 2 and p["hands"] == [[1, 2], [1, 3]]
    for name, text in p["notations"].items():
        if name == "seated":
            assert rules.position(text)["position"] == "2_1213"
        else:
            # Mover-first notations do not say whose turn it is: Player 1 to move.
            assert rules.position(text)["hands"] == [[1, 3], [1, 2]]
    assert rules.start() == "1_1111" and rules.start("paper") == "(1,1|1,1)_4"
    assert rules.play("1_1111", "tap 1→1") == "2_1112"
    assert rules.play("1_1111", "t11", notation="compact") == "1211"
    assert rules.variant == "standard" and rules.players == 2 and rules.hands == [2, 2] and rules.fingers == 5
    assert rules == ct.Ruleset("standard") and hash(rules) == hash(ct.Ruleset("standard"))
    assert rules.to_dict() == {k: cli("rules", "--variant", "standard")[k] for k in ("variant", "description", "ruleset")}
    assert [p["variant"] for p in ct.Ruleset.presets()] == [p["variant"] for p in cli("rules", "--list")]


def test_rulesets_from_keywords_are_the_variant_ids_rulesets():
    # Every rule option of the command line as a keyword, over a preset.
    assert ct.Ruleset("standard", hands=3) == ct.Ruleset("standard.h3")
    assert ct.Ruleset(preset="standard", hands=3, fingers=7, rollover=True) == ct.Ruleset("standard.h3.f7.rollover")
    assert ct.Ruleset(preset="rollover", hands=3, fingers=7) == ct.Ruleset("rollover.h3.f7")
    assert ct.Ruleset(overflow="rollover") == ct.Ruleset("standard.rollover")
    assert ct.Ruleset(self_attack=False, transfer=False).variant == ct.Ruleset("standard.no-self-attack.no-transfer").variant
    assert ct.Ruleset(players=3) == ct.Ruleset("standard.p3")
    assert ct.Ruleset(preset="simple", hands=[1, 3]) == ct.Ruleset("simple.h1-3")
    assert ct.Ruleset(pass_splits="live") == ct.Ruleset("standard.pass-splits-live")
    assert ct.Ruleset(players=4, teams=True) == ct.Ruleset("standard.p4.teams")
    assert ct.Ruleset(even_divide=True).to_dict() == {
        k: cli("rules", "--even-divide")[k] for k in ("variant", "description", "ruleset")
    }
    # Mistakes are named.
    with pytest.raises(TypeError, match="unknown rule option `rolover`"):
        ct.Ruleset(rolover=True)
    with pytest.raises(TypeError, match="True or False"):
        ct.Ruleset(transfer="yes")
    with pytest.raises(ct.RulesError, match="one of cutoff, rollover"):
        ct.Ruleset(overflow="wrap")
    with pytest.raises(TypeError, match="not both"):
        ct.Ruleset("standard", preset="rollover")
    with pytest.raises(ct.RulesError, match="contradict"):
        ct.Ruleset(even_divide=True, divide=False)
    with pytest.raises(ct.RulesError):
        ct.Ruleset(fingers=1)


def test_the_version_is_the_command_lines():
    out = subprocess.run([binary(), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"chopsticks {ct.COMMAND_LINE_VERSION}"
    assert ct.COMMAND_LINE_VERSION.startswith(ct.__version__ + " (commit ")


def test_a_saved_solution_answers_as_the_solved_one(standard, tmp_path):
    path = tmp_path / "standard.sol"
    standard.save(path)
    loaded = ct.load(path)
    assert loaded.path == str(path) and loaded.positions == standard.positions
    for position in ["1111", "2_1213", "1_0112"]:
        assert loaded.query(position, lines=True) == standard.query(position, lines=True)
    assert loaded.query("1111") == cli("query", "1111", "--db", str(path))
    loaded.check()
    # Values alone: half the memory, no remoteness.
    values = ct.solve("standard", remoteness=False)
    assert not values.remoteness and values.query("1111")["remoteness"] is None
    with pytest.raises(ct.ChopsticksError, match="remoteness"):
        values.puzzles()


def test_bad_input_is_a_python_exception_with_the_command_lines_message(standard, tmp_path):
    with pytest.raises(ct.RulesError) as e:
        standard.query("9999")
    assert isinstance(e.value, ValueError)
    assert str(e.value) in cli_error("query", "9999")
    with pytest.raises(ct.RulesError):
        ct.Ruleset("standard.bogus")
    with pytest.raises(ct.RulesError):
        ct.Ruleset("standard").play("1111", "tap 3→1")
    with pytest.raises(ct.RulesError, match="notation"):
        standard.query("1111", notation="klingon")
    with pytest.raises(ct.RulesError, match="variant"):
        standard.review("variant rollover\ntap 1→1\n")
    with pytest.raises(ct.RulesError):
        standard.puzzle("1_0000")
    with pytest.raises(ct.RulesError):
        ct.value("(1|1")
    with pytest.raises(TypeError):
        ct.solve(5)
    with pytest.raises(TypeError):
        standard.query(1111)
    with pytest.raises(TypeError):
        standard.review(42)
    # Too large: refused at once, with the estimate.
    with pytest.raises(ct.TooLargeError, match="memory"):
        ct.solve("standard.h12.f12")
    with pytest.raises(ct.TooLargeError):
        ct.Atlas(3, 200)
    with pytest.raises(ct.TooLargeError, match="max_positions"):
        ct.value("(1,1,1,1,1,1|1,1,1,1,1,1)_40", max_positions=1000)
    # Files: missing, not a solution, damaged.
    with pytest.raises(ct.SolutionFileError) as e:
        ct.load(tmp_path / "missing.sol")
    assert isinstance(e.value, OSError)
    junk = tmp_path / "junk.sol"
    junk.write_bytes(b"not a solution at all" * 100)
    with pytest.raises(ct.SolutionFileError):
        ct.load(junk)
    path = tmp_path / "s.sol"
    standard.save(path)
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    damaged = tmp_path / "damaged.sol"
    damaged.write_bytes(bytes(data))
    with pytest.raises(ct.SolutionFileError):
        ct.load(damaged).check()
    with pytest.raises(ct.SolutionFileError):
        standard.save(tmp_path / "no" / "such" / "dir.sol")
    assert not list(tmp_path.glob("**/*.tmp*"))
    # A file rewritten under a loaded solution is refused, not read.
    moving = tmp_path / "moving.sol"
    standard.save(moving)
    opened = ct.load(moving)
    opened.query("1111")
    ct.solve("standard.misere").save(moving)
    with pytest.raises(ct.SolutionFileError, match="changed since it was loaded"):
        opened.query("1111")


def test_numbers_out_of_range_and_limits_name_the_argument():
    standard = ct.solve("standard")
    for call, name in [
        (lambda: standard.puzzles(count=-1), "count"),
        (lambda: standard.puzzles(seed=-1), "seed"),
        (lambda: standard.puzzles(count=10**30), "count"),
        (lambda: ct.solve(memory=-1), "memory"),
        (lambda: ct.solve(memory=10**30), "memory"),
        (lambda: ct.Atlas(-1, 2), "n"),
        (lambda: ct.Atlas(3, 10**30), "max_hands"),
        (lambda: ct.Atlas(3, 2).outcome([-1], [1]), "left"),
        (lambda: ct.Atlas(3, 2).records(limit=-1), "limit"),
        (lambda: ct.value("(1|1)_4", max_work=0), "max_work"),
        (lambda: ct.value("(1|1)_4", hands=[-1]), "hands"),
    ]:
        with pytest.raises(ct.RulesError, match=f"`{name}`"):
            call()
    with pytest.raises(TypeError, match="`n`"):
        ct.Atlas("3", 2)
    with pytest.raises(TypeError, match="list of whole numbers"):
        ct.Atlas(3, 2).outcome("11", "1")
    with pytest.raises(ct.RulesError, match="at least 1"):
        ct.value("(1|1)_4", hands=[0])
    # Sizes as the command line reads them.
    assert ct.solve("standard", memory="512M").query()["remoteness"] == 23
    with pytest.raises(ct.RulesError, match="memory"):
        ct.solve(memory="lots")
    # A variant too large for the move tables is too large, not impossible.
    with pytest.raises(ct.TooLargeError):
        ct.solve("standard.h1.f100000")
    # A values-only table says what to do in Python's words.
    values = ct.solve("standard", remoteness=False)
    with pytest.raises(ct.ChopsticksError, match="remoteness=True"):
        values.line()
    # The variant and the position's own size must agree, as on the command line.
    with pytest.raises(ct.RulesError, match="F = 8"):
        ct.value("(1|1)_4", "simple.f8")
    assert "F = 8" in cli_error("value", "(1|1)_4", "--variant", "simple.f8")
    # Difficulties as a list of two, too.
    assert standard.puzzles(3, difficulty=[1, 5]) == standard.puzzles(3, difficulty=(1, 5))


def test_the_atlas_as_arrays_and_records():
    atlas = ct.Atlas(3, 3)
    sides = atlas.sides()
    codes = atlas.array()
    assert len(codes) == len(sides) ** 2 == len(atlas)
    records = atlas.records()
    assert len(records) == len(atlas)
    for k, r in enumerate(records):
        assert r["left"] == sides[k // len(sides)] and r["right"] == sides[k % len(sides)]
        assert ct.OUTCOMES[codes[k]] == r["outcome"] == atlas.outcome(r["left"], r["right"])
    # Proposition 2 of the paper: (1|1)_n is P for even n... and (1,1|1,1)_2 is N.
    assert ct.Atlas(2, 2).outcome([1, 1], [1, 1]) == "N"
    assert atlas.summary() == cli("table", "outcomes", "--n", "3", "--max-hands", "3")
    with pytest.raises(ct.TooLargeError):
        atlas.records(limit=10)


def test_long_work_lets_other_threads_run():
    # A solve releases the interpreter lock: another thread ticks during it.
    ticks = []
    started, stop = threading.Event(), threading.Event()

    def tick():
        started.set()
        while not stop.is_set():
            ticks.append(time.perf_counter())
            stop.wait(0.0005)

    t = threading.Thread(target=tick)
    t.start()
    started.wait()
    begin = time.perf_counter()
    ct.solve("standard.h7.f7", quiet=True)
    end = time.perf_counter()
    stop.set()
    t.join()
    assert any(begin < x < end for x in ticks), (begin, end, ticks[:5])


def test_the_notebook_example_runs(tmp_path):
    example = ROOT / "docs" / "python" / "notebook.py"
    out = subprocess.run(
        [sys.executable, str(example), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "atlas.png").stat().st_size > 10_000
    assert (tmp_path / "table.png").stat().st_size > 10_000
    assert "Player 1: win in 23" in (tmp_path / "start.svg").read_text()
    assert "win in 23" in out.stdout


# A game in progress: values that count its repetitions, as the page's and the API's.
def test_the_game_so_far_counts_its_repetitions(standard):
    rules = standard.ruleset
    cycle = ["1_1313"]
    for m in ["split 13→22", "split 13→22", "split 22→13"]:
        cycle.append(rules.play(cycle[-1], m))
    history = cycle * 2  # 1_1313 has come up twice; the next split brings it a third time
    g = standard.game(history)
    assert g["plies"] == 7 and g["times_seen"] == 2 and g["repetitions"] == "3"
    assert g["end"] is None and g["exact"] is True
    back = next(m for m in g["moves"] if m["to"] == "1_1313")
    assert back["repetition"] is True and back["value"] == "draw"
    assert sorted(m["order"] for m in g["moves"]) == list(range(len(g["moves"])))
    alone = standard.query(history[-1])
    assert (g["table_value"], g["table_remoteness"]) == (alone["value"], alone["remoteness"])
    # Without the repetition rule, the table's values.
    free = standard.game(history, repetitions="none")
    assert (free["value"], free["remoteness"]) == (alone["value"], alone["remoteness"])
    # The game over by repetition: no move.
    over = standard.game(history + ["1_1313"])
    assert over["end"] == {"kind": "repetition", "times": 3} and over["moves"] == []
    with pytest.raises(ct.RulesError, match="does not follow 1_1111 by a legal move"):
        standard.game(["1_1111", "1_1313"])
    with pytest.raises(ct.RulesError, match="repetitions"):
        standard.game(history, repetitions=1)
    with pytest.raises(ct.RulesError, match="no position"):
        standard.game([])


# A puzzle followed move by move, as the API's played= and --played.
def test_a_puzzle_is_followed_by_the_moves_played(standard):
    p = standard.puzzle("1_2312", played=["t32"])
    assert p["progress"] == cli("puzzles", "--position", "1_2312", "--played", "t32")["progress"]
    assert p["progress"]["verdict"] == "right"
    wrong = standard.puzzle("1_2312", played=["t21"])["progress"]
    assert wrong["verdict"] == "wrong" and wrong["end"] == {"kind": "failed"}
    with pytest.raises(ct.RulesError, match="not a legal move"):
        standard.puzzle("1_2312", played=["t99"])


# Whole tables as arrays and DataFrames, row for row the command line's export.
def export_rows(*args):
    out = subprocess.run(
        [binary(), "export", *args, "--quiet"], capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_to_numpy_is_the_export_row_for_row(standard):
    np = pytest.importorskip("numpy")
    a = standard.to_numpy()
    rows = export_rows()
    n = standard.positions
    assert len(rows) == n
    assert set(a) == {"index", "player", "value", "remoteness", "hands"}
    assert a["index"].dtype == np.uint64 and (a["index"] == np.arange(n)).all()
    assert a["hands"].shape == (n, 4) and a["hands"].dtype == np.uint8
    for i, row in enumerate(rows):
        assert ct.VALUES[a["value"][i]] == row["value"], (i, row)
        assert a["remoteness"][i] == (-1 if row["remoteness"] is None else row["remoteness"])
    # A row's position, as every other call reads and writes it.
    i = standard.index_of("1111")
    assert standard.position_at(i) == "1_1111"
    assert ct.VALUES[a["value"][i]] == "win" and a["remoteness"][i] == 23
    assert list(a["hands"][i]) == [1, 1, 1, 1] and a["player"][i] == 1
    for j in (0, 7, n - 1):
        q = standard.outcome(standard.position_at(j))
        assert (q["value"], q["remoteness"] if q["remoteness"] is not None else -1) == (
            ct.VALUES[a["value"][j]],
            a["remoteness"][j],
        )
    # A range, and its bounds checked.
    part = standard.to_numpy(10, 20)
    assert (part["value"] == a["value"][10:20]).all()
    with pytest.raises(ct.RulesError, match="stop"):
        standard.to_numpy(0, n + 1)
    with pytest.raises(ct.RulesError, match="start"):
        standard.to_numpy(30, 20)
    with pytest.raises(ct.RulesError, match="index"):
        standard.position_at(n)
    # numpy's integers go where an int does, the table's own among them.
    assert standard.position_at(a["index"][i]) == "1_1111"
    assert (standard.to_numpy(np.int64(3), np.uint64(5))["index"] == [3, 4]).all()
    assert standard.index_of() == i  # the start
    # Past 256 fingers a hand takes four bytes.
    wide = ct.solve("standard.f300.h1")
    hands = wide.to_numpy(wide.positions - 1)["hands"]
    assert hands.dtype == np.uint32 and hands.tolist() == [[299, 299]]
    assert wide.position_at(wide.positions - 1) == "1_299-299"


def test_to_pandas_with_three_players_has_every_players_value():
    pd = pytest.importorskip("pandas")
    solution = ct.solve("rollover.p3")
    df = solution.to_pandas()
    rows = export_rows("--players", "3", "--preset", "rollover")
    assert len(df) == len(rows) == solution.positions
    assert list(df.columns) == [
        "position", "player", "value", "remoteness",
        "player_1_value", "player_2_value", "player_3_value",
    ]
    assert df.index.name == "index"
    assert list(df["value"].cat.categories) == ["win", "lose", "draw"]
    assert str(df["remoteness"].dtype) == "Int32"
    for i, row in enumerate(rows):
        r = df.iloc[i]
        assert r["value"] == row["value"]
        # The export counts from the mover; the frame by player number.
        turn = r["player"] - 1
        for k, seat in enumerate(row["by_turn"]):
            assert r[f"player_{(turn + k) % 3 + 1}_value"] == seat["value"], (i, row)
        assert r[f"player_{r['player']}_value"] == r["value"]
        if row["remoteness"] is None:
            assert r["remoteness"] is pd.NA
        else:
            assert r["remoteness"] == row["remoteness"]
    assert solution.to_numpy()["values"].shape == (solution.positions, 3)


def test_chunks_stream_the_table_in_order(standard):
    pd = pytest.importorskip("pandas")
    whole = standard.to_pandas()
    chunks = standard.chunks(50, kind="pandas")
    assert len(chunks) == -(-standard.positions // 50)
    joined = pd.concat(list(chunks))
    assert joined.equals(whole)
    arrays = list(standard.chunks(100, start=5, stop=230 if standard.positions > 230 else None))
    assert arrays[0]["index"][0] == 5
    with pytest.raises(ct.RulesError, match="kind"):
        standard.chunks(10, kind="arrow")


def test_more_rows_than_the_memory_allows_are_refused_with_chunks_offered(standard):
    with pytest.raises(ct.TooLargeError, match=r"225 rows take about .* chunks\(rows\)"):
        standard.to_numpy(memory="1K")
    with pytest.raises(ct.TooLargeError, match="a DataFrame"):
        standard.to_pandas(memory=4096)
    # A chunk that fits is given.
    assert len(next(iter(standard.chunks(10, memory="1K")))["index"]) == 10
    with pytest.raises(ct.RulesError, match="rows"):
        standard.chunks(0)


# Positions drawn inline in a notebook.
def test_positions_are_drawn_as_svg(standard):
    p = ct.Position("2_1213")
    assert (p.id, p.player, p.hands, p.terminal) == ("2_1213", 2, [[1, 2], [1, 3]], False)
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and "Player 2 ▶" in svg and "2_1213" in svg
    assert ct.Position("1213") == standard.ruleset.at("1_1213")
    assert p.play("t12").id == standard.ruleset.play("2_1213", "t12")
    assert p.moves() == standard.ruleset.moves("2_1213")
    board = standard.board()
    assert board.caption == "Player 1: win in 23" and "win in 23" in board.svg()
    # A finished game has been won or lost, and its board is as wide as its caption.
    over = standard.board("1_0011")
    assert over.caption == "Player 1: has lost"
    width = int(over.svg().split('width="')[1].split('"')[0])
    assert width >= 7 * len("1_0011 · game over · Player 1: has lost")
    # A Position goes wherever a position does; one of other rules is refused.
    assert standard.outcome(p) == standard.outcome("2_1213")
    assert standard.index_of(p) == standard.index_of("2_1213")
    assert ct.Position(p) == p and standard.board(p).id == "2_1213"
    with pytest.raises(ct.RulesError, match="of the variant rollover"):
        standard.outcome(ct.Position("1111", "rollover"))
    assert repr(p) == 'chopsticks_toolkit.Position("2_1213", "standard")'
    with pytest.raises(ct.RulesError):
        ct.Position("9999")


# Progress to a callable, and a solve stopped by Ctrl-C.
def test_progress_goes_to_a_callable():
    events = []
    ct.solve("standard.h3", progress=events.append, quiet=True)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "begin" and kinds[-1] == "end" and "advance" in kinds
    done = [e["done"] for e in events if e["event"] == "advance"]
    assert done == sorted(done) and done[-1] > 0
    assert all(set(e) == {"event", "phase", "done", "total", "message"} for e in events)

    def refuse(event):
        if event["event"] == "advance":
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        ct.solve("standard.h3", progress=refuse, quiet=True)
    for wrong in (5, "yes", 1.0):
        with pytest.raises(TypeError, match="progress"):
            ct.solve("standard", progress=wrong)


INTERRUPTED = r"""
import os, signal, sys, time
import chopsticks_toolkit as ct
seen = []
def progress(event):
    if event["event"] == "announce":
        print("announced:", event["message"])
    if event["event"] == "advance" and not seen:
        seen.append(time.perf_counter())
        print("scratch while solving:", len(os.listdir(os.environ["TMPDIR"])))
        os.kill(os.getpid(), signal.SIGINT)
try:
    ct.solve(sys.argv[1], memory=sys.argv[2], progress=progress, quiet=True)
    print("not interrupted")
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - seen[0]:.2f} s")
    after = ct.solve("standard").query()["remoteness"]
    print("then solved again:", after)
"""


INTERRUPTED_ROWS = r"""
import os, signal, threading, time
import chopsticks_toolkit as ct
s = ct.solve("standard.h6.f10", quiet=True)
for call in (lambda: s.to_numpy(), lambda: s.to_pandas(), lambda: list(s.chunks(1 << 22))):
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        call()
        print("not interrupted")
    except KeyboardInterrupt:
        print(f"interrupted after {time.perf_counter() - start - 0.2:.2f} s")
    timer.join()
print("rows after:", len(s.to_numpy(0, 10)["index"]))
"""


def test_ctrl_c_stops_whole_tables_too():
    out = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_ROWS], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert "PanicException" not in out.stderr, out.stderr
    lines = [l for l in out.stdout.splitlines() if l.startswith("interrupted after")]
    assert len(lines) == 3, out.stdout + out.stderr
    assert all(float(l.split()[2]) < 5 for l in lines), out.stdout
    assert "rows after: 10" in out.stdout


@pytest.mark.parametrize("memory", [None, "48M"])
def test_ctrl_c_stops_a_solve_and_leaves_nothing(tmp_path, memory):
    variant = "standard.h6.f10"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch))
    args = [sys.executable, "-c", INTERRUPTED, variant, memory or "16G"]
    out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "interrupted after" in out.stdout, out.stdout + out.stderr
    seconds = float(out.stdout.split("interrupted after ")[1].split()[0])
    assert seconds < 10, out.stdout
    assert "then solved again: 23" in out.stdout
    if memory:
        # Out of core: its parts were on disk in the temporary folder, and are gone.
        assert "announced: solving out of core" in out.stdout, out.stdout
        assert "scratch while solving: 0" not in out.stdout, out.stdout
    assert list(scratch.iterdir()) == []
