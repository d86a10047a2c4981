"""The bundle's entry point, for both of its executables: the same as the ``ndcg-studio`` script
of a pip install (a subcommand runs the command line, none opens the window)."""

import sys

from ndcg_studio.app import console_main

if __name__ == "__main__":
    sys.exit(console_main())
