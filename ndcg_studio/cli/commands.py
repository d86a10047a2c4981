"""Handlers of the headless subcommands (registered with :func:`ndcg_studio.cli.command`)."""

from __future__ import annotations
