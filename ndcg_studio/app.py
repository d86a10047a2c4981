"""Entry point of ``ndcg-studio`` and ``python -m ndcg_studio``.

With a subcommand it runs headless (:mod:`ndcg_studio.cli`); without one it opens the desktop app.
PySide6 is imported only when the GUI is started, so headless commands start fast.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

from ndcg_studio.cli.main import run
from ndcg_studio.cli.parser import normalize_argv, parse_args


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``); run a command or open the GUI.

    Returns the process exit code.
    """
    argv = normalize_argv(list(sys.argv[1:] if argv is None else argv))
    args = parse_args(argv)
    if args.command is not None:
        return run(args)
    from ndcg_studio.ui.application import run_gui

    return run_gui(db=args.db, demo=args.demo, lang=args.lang)


def quiet_blas_threads() -> None:
    """Let OpenBLAS's idle threads sleep at once instead of spinning; call it before NumPy loads.

    OpenBLAS starts its threads when NumPy is imported, and after every call it keeps each one
    busy-waiting for work for about 2**28 cycles (its default ``OPENBLAS_THREAD_TIMEOUT``, 28).
    On a small machine those spins take the cores from the app's own threads, from the start
    on (``benchmarks/bench_gui_scale.py``: CPU s at window shown). 4 is OpenBLAS's lowest
    timeout; its threads still share every large product. A value the user set is kept.
    """
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")


def console_main() -> int:
    """The ``ndcg-studio`` script and ``python -m ndcg_studio``: :func:`main`, then exit.

    Before the process exits, every live object is moved out of the garbage collector's view
    (:func:`gc.freeze`): the interpreter's final collection would otherwise walk them all, a
    visible share of a short ``ndcg-studio score`` (``benchmarks/bench_startup.py``). Nothing is
    lost: the process ends right after, and files were closed and flushed by the command.
    """
    quiet_blas_threads()
    code = main()
    gc.freeze()
    return code
