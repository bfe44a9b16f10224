"""Solve and analyse the hand game Chopsticks in all its generalisations.

>>> import chopsticks_toolkit as ct
>>> ct.solve("standard").query("1111")["remoteness"]
23

The same vocabulary as the command line and its ``--json`` (docs/JSON.md):
positions are read in every notation (seated ids ``2_1312``, ``1213``,
``12-13``, ``(1,2|1,3)_4``) and written as seated ids; players are numbered
from 1; every answer is a ``dict`` with the keys ``chopsticks … --json`` prints.
The wheel also installs the ``chopsticks`` command (the same command line as
the binary, every subcommand). ``__version__`` is the package's version;
``COMMAND_LINE_VERSION`` adds the commit it was built from, as
``chopsticks --version`` prints it. See docs/PYTHON.md.
"""

from ._errors import ChopsticksError, RulesError, SolutionFileError, TooLargeError
from ._native import (
    COMMAND_LINE_VERSION,
    OUTCOMES,
    VALUES,
    Atlas,
    Chunks,
    Position,
    Ruleset,
    Solution,
    __version__,
    load,
    moves,
    solve,
    value,
)

__all__ = [
    "COMMAND_LINE_VERSION",
    "__version__",
    "Atlas",
    "Chunks",
    "ChopsticksError",
    "OUTCOMES",
    "Position",
    "Ruleset",
    "RulesError",
    "Solution",
    "SolutionFileError",
    "TooLargeError",
    "VALUES",
    "load",
    "moves",
    "solve",
    "value",
]
