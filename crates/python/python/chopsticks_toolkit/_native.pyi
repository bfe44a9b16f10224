"""Type hints of the chopsticks_toolkit package's native module (PyO3).

Every answer is a ``dict`` with the keys the command line's ``--json`` prints
(docs/JSON.md); the most used ones are typed here. Positions are ``str`` in any
notation the toolkit reads; players are numbered from 1.
"""

from os import PathLike
from typing import Any, Callable, Dict, List, Literal, NoReturn, Optional, Sequence, Tuple, TypedDict, Union

OUTCOMES: List[str]
VALUES: List[str]
"""The values in the order of ``to_numpy()``'s codes: win, lose, draw."""
__version__: str
COMMAND_LINE_VERSION: str

def run_command_line(program: str, args: List[str]) -> NoReturn:
    """Runs the ``chopsticks`` command line on ``args`` (the program's name
    first) as ``program``; the process ends with its exit status."""
"""The outcome classes in the order of ``Atlas.array``'s codes: L, R, N, P."""

ValueName = Literal["win", "lose", "draw"]
Notation = Literal["seated", "compact", "dashed", "paper"]
Variant = Union[str, "Ruleset"]
Grade = Union[int, str]

class Outcome(TypedDict):
    value: ValueName
    remoteness: Optional[int]

class PlayerOutcome(TypedDict):
    player: int
    value: ValueName
    remoteness: Optional[int]

class Move(TypedDict):
    move: str
    kind: str
    to: str

class EvaluatedMove(TypedDict, total=False):
    move: str
    kind: str
    to: str
    value: ValueName
    remoteness: Optional[int]
    players: List[PlayerOutcome]
    line: Dict[str, Any]

class Query(TypedDict, total=False):
    variant: str
    description: str
    ruleset: Dict[str, Any]
    position: str
    player: int
    hands: List[List[int]]
    terminal: bool
    concept: str
    value: ValueName
    remoteness: Optional[int]
    players: List[PlayerOutcome]
    moves: List[EvaluatedMove]
    line: Dict[str, Any]

class PositionOutcome(TypedDict):
    position: str
    player: int
    value: ValueName
    remoteness: Optional[int]

class Moves(TypedDict):
    variant: str
    description: str
    ruleset: Dict[str, Any]
    position: str
    player: int
    hands: List[List[int]]
    terminal: bool
    moves: List[Move]

class AtlasRecord(TypedDict):
    position: str
    left: List[int]
    right: List[int]
    outcome: Literal["L", "R", "N", "P"]

class Ruleset:
    """A ruleset of Chopsticks, read from a variant id (``"standard"``,
    ``"rollover.h3.f7"``, ``"standard.p4.teams"``), or from keywords over a
    preset: ``Ruleset(preset="standard", hands=3, fingers=7, rollover=True,
    self_attack=False)``, every rule option of the command line as a keyword
    (``transfer``, ``divide``, ``even_divide``, ``suicide``, ``misere``,
    ``teams``, …; ``overflow="rollover"``, ``pass_splits="live"``)."""

    def __init__(
        self,
        variant: Optional[str] = None,
        *,
        preset: Optional[str] = None,
        players: Optional[int] = None,
        hands: Union[int, Sequence[int], None] = None,
        fingers: Optional[int] = None,
        **options: Union[bool, str],
    ) -> None: ...
    @property
    def variant(self) -> str:
        """The canonical variant id."""
    @property
    def description(self) -> str:
        """The ruleset in words."""
    @property
    def players(self) -> int: ...
    @property
    def hands(self) -> List[int]:
        """Hands of each player, Player 1 first."""
    @property
    def fingers(self) -> int:
        """F: a hand reaching F fingers is out (cutoff) or wraps (rollover)."""
    @property
    def positions(self) -> int:
        """Positions of the dense index (what a solve stores)."""
    def to_dict(self) -> Dict[str, Any]:
        """``{"variant", "description", "ruleset"}``."""
    def start(self, notation: Optional[Notation] = None) -> str:
        """The start position, as a seated id or in ``notation``."""
    def position(self, position: Optional[str] = None) -> Dict[str, Any]:
        """A position read in any notation, with its seated id, player to move,
        hands, whether the game is over, and every notation (``notations``)."""
    def moves(self, position: Optional[str] = None, *, notation: Optional[Notation] = None) -> Moves:
        """The legal moves and where they lead (``chopsticks moves --json``)."""
    def play(self, position: str, move_text: str, *, notation: Optional[Notation] = None) -> str:
        """The position after a move (``"tap 1→2"``, ``"t12"``, ``"split 13→22"``)."""
    def at(self, position: Optional[str] = None) -> "Position":
        """A position (the start when None) as a ``Position``, drawn by a notebook."""
    @staticmethod
    def presets() -> List[Dict[str, Any]]:
        """Every preset: ``[{"variant", "description", "ruleset"}]``."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Position:
    """One position of a ruleset; Jupyter draws it (``_repr_svg_``)."""

    def __init__(self, position: Optional[str] = None, variant: Optional[Variant] = None) -> None: ...
    @property
    def id(self) -> str:
        """Its seated id (``2_1312``)."""
    @property
    def player(self) -> int:
        """The player to move, from 1."""
    @property
    def hands(self) -> List[List[int]]:
        """Every player's hands, Player 1's first."""
    @property
    def terminal(self) -> bool: ...
    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def caption(self) -> Optional[str]:
        """The caption under the board (``Solution.board``'s value), or None."""
    def play(self, move_text: str) -> "Position": ...
    def moves(self) -> Moves: ...
    def svg(self) -> str:
        """The board as an SVG document."""
    def _repr_svg_(self) -> str: ...

class Progress(TypedDict):
    """An event of ``solve(progress=f)``."""

    event: Literal["begin", "advance", "end", "announce"]
    phase: str
    done: Optional[int]
    total: Optional[int]
    message: Optional[str]

class Chunks:
    """The chunks of ``Solution.chunks``: each a dict of arrays or a DataFrame."""

    def __iter__(self) -> "Chunks": ...
    def __next__(self) -> Any: ...
    def __len__(self) -> int: ...

class Solution:
    """A solved table: every position's value with its remoteness."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def variant(self) -> str: ...
    @property
    def positions(self) -> int: ...
    @property
    def concept(self) -> Literal["two-player", "coalition", "teams"]: ...
    @property
    def remoteness(self) -> bool:
        """Whether the table holds remoteness (not solved values-only)."""
    @property
    def solve_seconds(self) -> float: ...
    @property
    def path(self) -> Optional[str]:
        """The file the table was read from, or None."""
    def query(
        self, position: Optional[str] = None, *, lines: bool = False, notation: Optional[Notation] = None
    ) -> Query:
        """A position's value and every move's value, best first (``chopsticks query --json``)."""
    def outcome(self, position: Optional[str] = None) -> PositionOutcome:
        """The value of a position for the player to move, without its moves."""
    def board(self, position: Optional[str] = None) -> Position:
        """A position captioned with its value (``Player 1: win in 23``)."""
    def position_at(self, index: int) -> str:
        """The seated id of the position with this index (a row of ``to_numpy()``)."""
    def index_of(self, position: str) -> int:
        """The index of a position (its row in ``to_numpy()`` and ``to_pandas()``)."""
    def to_numpy(self, start: Optional[int] = None, stop: Optional[int] = None) -> Dict[str, Any]:
        """Rows ``start:stop`` as numpy arrays: ``index``, ``player`` (to move,
        from 1), ``value`` (a code into ``VALUES``), ``remoteness`` (-1: none),
        ``hands`` (Player 1's first), and with three or more players ``values``."""
    def to_pandas(self, start: Optional[int] = None, stop: Optional[int] = None) -> Any:
        """Rows ``start:stop`` as a DataFrame: position, player, value (categorical),
        remoteness (nullable), and ``player_K_value`` with three or more players."""
    def chunks(
        self,
        rows: Optional[int] = None,
        *,
        start: Optional[int] = None,
        stop: Optional[int] = None,
        kind: Literal["numpy", "pandas"] = "numpy",
    ) -> Chunks:
        """The rows in chunks of ``rows`` (2**20 by default), a table larger than memory."""
    def game(self, history: Sequence[str], *, repetitions: Union[int, str, None] = None) -> Dict[str, Any]:
        """The values of a game in progress (its positions so far, oldest first),
        its repetitions counted (``query P --history … --json``)."""
    def line(self, position: Optional[str] = None) -> Dict[str, Any]:
        """The optimal line from a position, both sides playing their best."""
    def review(
        self, game: Union[str, Sequence[str]], *, mistakes_only: bool = False, lines: bool = True
    ) -> Dict[str, Any]:
        """A review of a game record or a list of moves (``chopsticks review --json``)."""
    def puzzles(
        self,
        count: Optional[int] = 10,
        *,
        seed: Optional[int] = 1,
        kind: Literal["any", "win", "hold"] = "any",
        difficulty: Union[None, Grade, Tuple[Grade, Grade]] = None,
        hide_answers: bool = False,
    ) -> Dict[str, Any]:
        """Puzzles chosen by ``seed`` (``chopsticks puzzles --json``)."""
    def puzzle(self, position: str, *, hide_answers: bool = False) -> Dict[str, Any]:
        """The puzzle at one position (``puzzles --position P --json``)."""
    def summary(self, *, reachable: Optional[bool] = None) -> Dict[str, Any]:
        """Counts of wins, losses, draws, the start's value and the longest win."""
    def save(self, path: Union[str, PathLike]) -> None:
        """Writes the table (``solve --save``'s format) through a temporary file."""
    def check(self) -> None:
        """Checks every position against the rules; raises SolutionFileError."""

class Atlas:
    """The outcome class of every Simple Chopsticks position ``(x|y)_n`` with
    at most ``max_hands`` hands a side."""

    def __init__(self, n: int, max_hands: int) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def max_hands(self) -> int: ...
    def sides(self) -> List[List[int]]:
        """Every side, in the order of ``array``'s rows and columns."""
    def outcome(self, left: Sequence[int], right: Sequence[int]) -> Literal["L", "R", "N", "P"]: ...
    def summary(self) -> Dict[str, Any]:
        """Outcome counts in all and by hand counts (``table outcomes --json``)."""
    def array(self) -> bytes:
        """One byte a position (codes of ``OUTCOMES``), rows Left's side."""
    def records(self, *, limit: Optional[int] = 1_000_000) -> List[AtlasRecord]:
        """One record a position, DataFrame-ready."""
    def __len__(self) -> int: ...

def solve(
    variant: Optional[Variant] = None,
    *,
    remoteness: bool = True,
    save: Union[None, str, PathLike] = None,
    memory: Union[None, int, str] = None,
    progress: Union[bool, Callable[[Progress], Any]] = False,
    quiet: bool = False,
) -> Solution:
    """Solves a ruleset (the standard game by default). ``memory``: bytes, or a
    size such as ``"512M"``, ``"2G"``. ``progress``: True for stderr, or a
    callable given each event. Ctrl-C stops the solve (``KeyboardInterrupt``)."""

def load(path: Union[str, PathLike]) -> Solution:
    """Opens a saved solution, read in place and checked around what is shown."""

def moves(
    position: Optional[str] = None, variant: Optional[Variant] = None, *, notation: Optional[Notation] = None
) -> Moves:
    """The legal moves of a position, without solving."""

def value(
    expression: str,
    variant: Optional[Variant] = None,
    *,
    hands: Optional[Sequence[int]] = None,
    details: bool = False,
    uptimal: bool = False,
    max_positions: Optional[int] = None,
    max_work: Optional[int] = None,
    max_vertices: Optional[int] = None,
) -> Dict[str, Any]:
    """The canonical (or loopy) game value of an expression (``chopsticks value --json``)."""
