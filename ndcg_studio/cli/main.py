"""The entry point of the headless commands: run the parsed command's handler and turn every
failure into one line on stderr and an exit code."""

from __future__ import annotations

import argparse
import os
import sys

from ndcg_studio.cli.common import UsageError

#: commands that never write, so their refusals do not say "nothing was written"
READ_ONLY_COMMANDS = frozenset({"eval", "simulate"})


def run(args: argparse.Namespace) -> int:
    """Run the subcommand in ``args``; turn expected errors into one-line messages.

    Exit 2: bad input or a command line that cannot work (nothing written); 1: anything else
    that went wrong (a database that cannot be read or written, a full disk, ...; see
    :func:`ndcg_studio.storage.failures.explain`); 130: cancelled.
    """
    from ndcg_studio.cli.handlers import HANDLERS
    from ndcg_studio.io.errors import InputError
    from ndcg_studio.storage.failures import explain

    where = f"ndcg-studio {args.command}"
    try:
        return HANDLERS[args.command](args)
    except InputError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        if args.command not in READ_ONLY_COMMANDS:  # eval and simulate never write
            print("nothing was written.", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``ndcg-studio score | head``): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"{where}: cancelled; nothing was written.", file=sys.stderr)
        return 130
    except Exception as exc:  # every other failure: one line that says what to do
        print(f"{where}: {explain(exc, getattr(args, 'db_label', None))}", file=sys.stderr)
        return 1
