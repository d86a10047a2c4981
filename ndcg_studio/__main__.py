"""``python -m ndcg_studio``: same as the ``ndcg-studio`` command."""

from __future__ import annotations

import sys

from ndcg_studio.app import console_main

if __name__ == "__main__":
    sys.exit(console_main())
