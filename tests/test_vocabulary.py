"""The one vocabulary: every UI label table, CLI choice and setting covers exactly its keys, and
identifiers sort in natural order (q1, q2, q10) everywhere."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio import vocabulary as V


def _choices(parser: argparse.ArgumentParser, command: str, option: str) -> tuple[object, ...]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    action = next(a for a in sub._actions if option in a.option_strings or a.dest == option)
    assert action.choices is not None
    return tuple(action.choices)


def test_the_cli_offers_exactly_the_vocabulary() -> None:
    from ndcg_studio.cli.parser import build_parser

    parser = build_parser()
    assert _choices(parser, "score", "--gain") == V.GAINS
    assert _choices(parser, "score", "--ideal") == V.IDEALS
    assert _choices(parser, "score", "--order") == V.ORDERS
    assert _choices(parser, "score", "--consensus") == V.CONSENSUS_METHODS
    assert _choices(parser, "simulate", "--consensus") == V.CONSENSUS_METHODS
    assert _choices(parser, "agreement", "--level") == V.ALPHA_LEVELS
    assert _choices(parser, "agreement", "--by") == V.SCOPES
    assert _choices(parser, "import", "kind") == V.IMPORT_KINDS
    agreement = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ).choices["agreement"]
    assert agreement.get_default("disputed_range") == V.DEFAULT_DISPUTED_RANGE
    assert set(_choices(parser, "export", "kind")) == set(V.EXPORT_KINDS)


def test_every_ui_label_table_covers_exactly_the_vocabulary() -> None:
    pytest.importorskip("PySide6")
    from ndcg_studio.ui import settings as S
    from ndcg_studio.ui.dialogs import scoring_settings
    from ndcg_studio.ui.models import grades
    from ndcg_studio.ui.views.agreement import view as agreement
    from ndcg_studio.ui.window import transfer

    assert set(dict(scoring_settings._GAINS)) == set(V.GAINS)
    assert set(dict(scoring_settings._IDEALS)) == set(V.IDEALS)
    assert set(dict(scoring_settings._CONSENSUS)) == set(V.CONSENSUS_METHODS)
    assert set(dict(agreement._LEVELS)) == set(V.ALPHA_LEVELS)
    assert set(transfer.IMPORT_KINDS) == set(V.IMPORT_KINDS)
    assert set(transfer.EXPORT_KINDS) == set(V.EXPORT_KINDS)
    assert set(grades.GRADE_COLORS) == set(V.GRADES)
    assert set(grades.GRADE_TEXT_COLORS) == set(V.GRADES)
    assert set(V.GRADE_LABELS) == set(V.GRADES)
    assert S.GAIN.choices == V.GAINS and S.GAIN.default == V.DEFAULT_GAIN
    assert S.IDEAL.choices == V.IDEALS and S.IDEAL.default == V.DEFAULT_IDEAL
    assert S.CONSENSUS.choices == V.CONSENSUS_METHODS
    assert S.CONSENSUS.default == V.DEFAULT_CONSENSUS


def test_the_services_read_the_vocabulary() -> None:
    from ndcg_studio.domain.agreement.alpha import LEVELS
    from ndcg_studio.services.agreement import AgreementSettings

    assert set(LEVELS) == set(V.ALPHA_LEVELS)
    assert AgreementSettings().disputed_range == V.DEFAULT_DISPUTED_RANGE
    assert AgreementSettings().level == V.DEFAULT_LEVEL
    import inspect

    from ndcg_studio.domain.agreement.spread import item_spread

    default = inspect.signature(item_spread).parameters["disputed_range"].default
    assert default == V.DEFAULT_DISPUTED_RANGE
    assert V.GRADES[0] == V.MIN_GRADE and V.GRADES[-1] == V.MAX_GRADE
    assert V.JUDGED_NONRELEVANT == -1


def test_natural_key_sorts_numbers_as_numbers() -> None:
    ids = ["q10", "q2", "Q1", "q1b", "q1", "10", "2"]
    assert sorted(ids, key=V.natural_key) == ["2", "10", "Q1", "q1", "q1b", "q2", "q10"]


@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_natural_key_orders_prefixed_numbers_like_the_numbers(numbers: list[int]) -> None:
    ids = [f"q{n}" for n in numbers]
    assert [int(i[1:]) for i in sorted(ids, key=V.natural_key)] == sorted(numbers)


def test_the_table_models_sort_like_natural_key() -> None:
    """The vectorised key of the table models (Review, Compare, Agreement) and the list key
    (Annotate's query list) agree: q1, q2, q10, not q1, q10, q2."""
    pytest.importorskip("PySide6")
    from ndcg_studio.services.screens.sort_keys import natural_key as array_key

    ids = np.array(["q10", "q2", "q1", "q2", "d7", "q100"])
    got = [str(ids[i]) for i in np.argsort(array_key(ids), kind="stable")]
    assert got == sorted(ids.tolist(), key=V.natural_key)
    assert got == ["d7", "q1", "q2", "q2", "q10", "q100"]
    numeric = np.array(["10", "2", "1"])
    assert [str(numeric[i]) for i in np.argsort(array_key(numeric))] == ["1", "2", "10"]
