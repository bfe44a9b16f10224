# %% [markdown]
# # Chopsticks in a notebook
#
# A notebook-style example of the Python package (docs/PYTHON.md): each `# %%`
# cell runs as a Jupyter cell (VS Code and Jupytext read this form), and the
# whole file runs as a script: `python docs/python/notebook.py OUT_DIR` writes
# its pictures to OUT_DIR. It needs the package with its notebook extras
# (pandas, matplotlib, numpy): `pip install "chopsticks-toolkit[notebook]"`. `crates/python/tests` runs it.

# %%
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no window: pictures are written to files
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import chopsticks_toolkit as ct

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
out.mkdir(parents=True, exist_ok=True)

# %% [markdown]
# ## The standard game, solved
# Every position's value for the player to move, with its remoteness (plies to
# the end with best play).

# %%
standard = ct.solve("standard")
start = standard.query()
print(f"{start['position']}: {start['value']} in {start['remoteness']}")
moves = pd.DataFrame(start["moves"])[["move", "to", "value", "remoteness"]]
print(moves.to_string(index=False))

# %% [markdown]
# ## The outcome atlas of Simple Chopsticks
# The paper's game `(x|y)_n` with n = 3 and up to 5 hands a side: the outcome
# class of every position, as an image. Rows are Left's side, columns Right's,
# both ordered by hand count and then by their hands.

# %%
atlas = ct.Atlas(3, 5)
sides = atlas.sides()
k = len(sides)
codes = np.frombuffer(atlas.array(), dtype=np.uint8).reshape(k, k)
# `array()` follows the order of `sides()`; sort both by hand count, then hands.
order = sorted(range(k), key=lambda i: (len(sides[i]), sides[i]))
codes = codes[np.ix_(order, order)]
sides = [sides[i] for i in order]
colours = matplotlib.colors.ListedColormap(["#1f77b4", "#d62728", "#2ca02c", "#7f7f7f"])
fig, ax = plt.subplots(figsize=(7, 6.2))
ax.imshow(codes, cmap=colours, vmin=-0.5, vmax=3.5, interpolation="nearest")
# Lines between hand counts, labelled with the count.
counts = [len(s) for s in sides]
edges = [i for i in range(1, k) if counts[i] != counts[i - 1]]
for e in edges:
    ax.axhline(e - 0.5, color="white", linewidth=0.6)
    ax.axvline(e - 0.5, color="white", linewidth=0.6)
middles = [(a + b) / 2 - 0.5 for a, b in zip([0] + edges, edges + [k])]
ax.set_xticks(middles, [str(c) for c in sorted(set(counts))])
ax.set_yticks(middles, [str(c) for c in sorted(set(counts))])
ax.set_xlabel("Right's hands")
ax.set_ylabel("Left's hands")
ax.set_title(f"Outcome classes of (x|y)_3, up to 5 hands a side ({len(atlas):,} positions)")
handles = [matplotlib.patches.Patch(color=colours(i), label=o) for i, o in enumerate(ct.OUTCOMES)]
ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1))
fig.tight_layout()
fig.savefig(out / "atlas.png", dpi=110)

# The same atlas as a DataFrame: the share of each class by hand counts.
records = pd.DataFrame(atlas.records())
records["left_hands"] = records["left"].map(len)
records["right_hands"] = records["right"].map(len)
difference = (records["left_hands"] - records["right_hands"]).rename("Left's hands − Right's")
shares = pd.crosstab(difference, records["outcome"], normalize="index")
print(shares.round(3).to_string())

# %% [markdown]
# ## A game reviewed
# A game where both players play their best move (the first listed) except at
# plies 1 and 4, where they take the second; then its review: each move's value
# for its player before and after it, a mistake being a move after which the
# player's value is worse.

# %%
position, game = standard.ruleset.start(), []
for ply in range(1, 17):
    q = standard.query(position)
    if q["terminal"]:
        break
    choice = q["moves"][1 if ply in (1, 4) and len(q["moves"]) > 1 else 0]
    game.append(choice["move"])
    position = choice["to"]
review = standard.review(game)
plies = pd.DataFrame(
    [
        {
            "ply": m["ply"],
            "player": m["player"],
            "move": m["move"],
            "before": m["before"]["value"],
            "after": m["after"]["value"],
            "verdict": m["verdict"]["kind"],
            "best": ", ".join(m["best"]),
        }
        for m in review["moves"]
    ]
)
print(plies.to_string(index=False))


def signed(outcome, player):
    """Player 1's value as a number: + wins (sooner higher), − losses."""
    r = outcome["remoteness"] or 0
    v = {"win": 1, "lose": -1, "draw": 0}[outcome["value"]]
    s = v * (100 - r) if v else 0
    return s if player == 1 else -s


history = [signed(review["moves"][0]["before"], review["moves"][0]["player"])]
for m in review["moves"]:
    # After a move, `after` is the mover's value in the new position.
    history.append(signed(m["after"], m["player"]))
fig, ax = plt.subplots(figsize=(7, 3))
ax.step(range(len(history)), history, where="post", color="#1f77b4")
ax.axhline(0, color="grey", linewidth=0.5)
for m in review["moves"]:
    if m["verdict"]["kind"] != "best":
        ax.annotate("?", (m["ply"], history[m["ply"]]), color="#d62728", fontsize=12)
ax.set_xlabel("ply")
ax.set_ylabel("Player 1's value (100 − plies)")
ax.set_title("A game of standard Chopsticks, reviewed")
fig.tight_layout()
fig.savefig(out / "review.png", dpi=110)

# %% [markdown]
# ## The whole table as a DataFrame
# Every position of the standard game, one row each: who is to move, the value
# for that player and its remoteness. Which share of positions is won, and how
# far the wins are from the end; then the board of the start, drawn inline in
# Jupyter (a `Position` has `_repr_svg_`).

# %%
table = standard.to_pandas()
print(table.head().to_string())
print(table["value"].value_counts().to_string())
by_remoteness = table.groupby(["value", "remoteness"], observed=True).size().unstack(0, fill_value=0)
print(by_remoteness.tail().to_string())
fig, ax = plt.subplots(figsize=(7, 3))
by_remoteness.plot.bar(ax=ax, stacked=True, color={"win": "#2ca02c", "lose": "#d62728"}, width=0.85)
ax.set_xlabel("remoteness (plies to the end with best play)")
ax.set_ylabel("positions")
ax.set_title("Every position of standard Chopsticks by value and remoteness")
fig.tight_layout()
fig.savefig(out / "table.png", dpi=110)

start_board = standard.board()
(out / "start.svg").write_text(start_board.svg())
start_board  # a notebook draws the board here
