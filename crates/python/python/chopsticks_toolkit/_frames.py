"""The DataFrames of ``Solution.to_pandas`` and ``Solution.chunks``, built from
the arrays the native module computes (see ``crates/python/src/frames.rs``)."""

from ._native import VALUES


def frame(arrays, positions, players):
    """A DataFrame of rows of a solved table: ``arrays`` as ``to_numpy()``
    gives them, ``positions`` their seated ids."""
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError(
            "to_pandas() needs pandas: pip install 'chopsticks-toolkit[notebook]'"
        ) from e
    categories = list(VALUES)
    remoteness = pd.array(arrays["remoteness"], dtype="Int32")
    remoteness[arrays["remoteness"] < 0] = pd.NA
    data = {
        "position": positions,
        "player": arrays["player"],
        "value": pd.Categorical.from_codes(arrays["value"], categories=categories),
        "remoteness": remoteness,
    }
    if players > 2:
        for k in range(players):
            data[f"player_{k + 1}_value"] = pd.Categorical.from_codes(
                arrays["values"][:, k], categories=categories
            )
    return pd.DataFrame(data, index=pd.Index(arrays["index"], name="index"))
