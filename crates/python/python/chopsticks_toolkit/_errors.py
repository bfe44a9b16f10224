"""The exceptions of the chopsticks_toolkit package.

Every error of the toolkit reaches Python as one of these, with the message the
command line prints for it.
"""


class ChopsticksError(Exception):
    """Anything the toolkit refuses; the base of the others."""


class RulesError(ChopsticksError, ValueError):
    """An impossible ruleset, variant id, position, move, notation or game record."""


class TooLargeError(ChopsticksError):
    """Work refused before it starts (a variant too large for memory, a list too
    long), with the estimate that refused it."""


class SolutionFileError(ChopsticksError, OSError):
    """A saved solution that cannot be read or written, is damaged, or
    contradicts the rules."""
