"""The ``chopsticks`` command, as the wheel installs it: the command line of the
``chopsticks`` binary (the same Rust code, in the package's native module), run
on this process's arguments. Every subcommand works as the binary's does."""

import os
import shutil
import signal
import sys


def main() -> None:
    # The command line handles Ctrl-C itself, as the binary does (cleaning up
    # its temporary files, stopping `serve`): Python's own handler, which only
    # raises KeyboardInterrupt once the interpreter runs again, goes. (SIGPIPE
    # stays ignored, as in the binary: a closed pipe ends it with status 141.)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    from ._native import run_command_line

    # Worker processes (`solve --workers`) are started from this script, or
    # from the installed `chopsticks` when run as `python -m`.
    program = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if not (os.path.isfile(program) and os.access(program, os.X_OK)):
        program = shutil.which("chopsticks") or program
    run_command_line(program, ["chopsticks", *sys.argv[1:]])


if __name__ == "__main__":
    main()
