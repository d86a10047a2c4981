"""The project's vocabulary, defined once: grades and their labels, the disputed range, consensus
methods, alpha levels, gains, ideals, run orders, agreement scopes, import and export kinds, and
the natural sort order of identifiers.

Standard library only (the CLI imports it and must stay cheap to start) and importing nothing
from the project but :mod:`ndcg_studio.translatable` (the marker of text the GUI translates), so
every layer may use it (``pyproject.toml``'s import-linter contracts keep it
at the bottom). The CLI's ``choices``, the app's settings, the combo boxes' label tables and the
services read these names; ``tests/test_vocabulary.py`` asserts every UI label table covers
exactly these keys.
"""

from __future__ import annotations

import re
from typing import Final, Literal, get_args

from ndcg_studio.translatable import QT_TRANSLATE_NOOP

# --------------------------------------------------------------------------- grades
#: The grades an annotator gives, lowest first.
GRADES: Final[tuple[int, ...]] = (0, 1, 2, 3, 4)
MIN_GRADE: Final = 0
MAX_GRADE: Final = 4
#: trec_eval's "judged non-relevant": the lowest grade an imported judgment may keep (gain 0
#: under every gain setting; an annotator grades 0-4 only).
JUDGED_NONRELEVANT: Final = -1
#: The name of each grade an annotator gives (English; the GUI shows it translated in context
#: "Grades", the CLI as it is).
GRADE_LABELS: Final[dict[int, str]] = {
    0: QT_TRANSLATE_NOOP("Grades", "irrelevant"),
    1: QT_TRANSLATE_NOOP("Grades", "marginal"),
    2: QT_TRANSLATE_NOOP("Grades", "relevant"),
    3: QT_TRANSLATE_NOOP("Grades", "highly relevant"),
    4: QT_TRANSLATE_NOOP("Grades", "perfect"),
}
#: An item is disputed when its annotators' grades span this many grades or more.
DEFAULT_DISPUTED_RANGE: Final = 2

# --------------------------------------------------------------------------- scoring
ConsensusMethod = Literal["mean", "median", "majority", "max", "min"]
#: How several annotators' grades of a document make one (the default, mean, first).
CONSENSUS_METHODS: Final[tuple[ConsensusMethod, ...]] = get_args(ConsensusMethod)
DEFAULT_CONSENSUS: Final[ConsensusMethod] = "mean"

Gain = Literal["linear", "exponential"]
#: Gain of grade g: g (linear, trec_eval) or 2^g - 1 (exponential).
GAINS: Final[tuple[Gain, ...]] = get_args(Gain)
DEFAULT_GAIN: Final[Gain] = "linear"

Ideal = Literal["judged", "list"]
#: Ideal DCG from every judged document of the query (trec_eval) or from the run's list only.
IDEALS: Final[tuple[Ideal, ...]] = get_args(Ideal)
DEFAULT_IDEAL: Final[Ideal] = "judged"

Order = Literal["score", "rank"]
#: Run order: score descending, docno descending (trec_eval) or the file's rank column.
ORDERS: Final[tuple[Order, ...]] = get_args(Order)
DEFAULT_ORDER: Final[Order] = "score"

# --------------------------------------------------------------------------- agreement
Level = Literal["ordinal", "interval", "ratio", "nominal"]
#: Krippendorff's alpha levels of measurement (the default, ordinal, first).
ALPHA_LEVELS: Final[tuple[Level, ...]] = get_args(Level)
DEFAULT_LEVEL: Final[Level] = "ordinal"

Scope = Literal["all", "query", "annotator", "pair", "item"]
#: The rows of an agreement report (``--by``): all judgments, per query, annotator, pair, item.
SCOPES: Final[tuple[Scope, ...]] = get_args(Scope)
DEFAULT_SCOPE: Final[Scope] = "all"

# --------------------------------------------------------------------------- import and export
ImportKind = Literal["run", "qrels", "judgments", "queries", "documents", "smart", "topics"]
IMPORT_KINDS: Final[tuple[ImportKind, ...]] = get_args(ImportKind)

ExportKind = Literal["report", "judgments", "qrels", "agreement", "compare"]
EXPORT_KINDS: Final[tuple[ExportKind, ...]] = get_args(ExportKind)

# --------------------------------------------------------------------------- interface
InterfaceLanguage = Literal["en", "zh_CN", "ru"]
#: The GUI's languages (``ndcg-studio --lang``; the CLI stays English).
INTERFACE_LANGUAGES: Final[tuple[InterfaceLanguage, ...]] = get_args(InterfaceLanguage)

# --------------------------------------------------------------------------- natural order
_NUMBERS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key putting "q2" before "q10": digit runs compare as numbers, the rest
    case-insensitively (numbers before letters at the same position). Every table and list of
    identifiers in the app sorts by this key (q1, q2, q10)."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
        for part in _NUMBERS.split(text)
        if part
    )
