"""The built-in demos: the Cranfield 1400 collection with Cleverdon's graded judgments and two
BM25 runs, shipped in ``resources/demo`` (see its README.md for provenance and how the runs were
made); and the small Chinese worked examples of ``resources/demo_examples`` (the 成都 queries of
an NDCG tutorial, with its grades and its Systems A and B; see its README.md).

Cleverdon's relevance codes become grades by :data:`ndcg_studio.io.smart.CRANFIELD_GRADE_MAP`
(code 1 "complete answer" → 4, 2 → 3, 3 → 2, 4 "minimum interest" → 1, −1 → 0).
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir

from ndcg_studio._paths import resources_dir
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.storage.database import APP_NAME, Database
from ndcg_studio.storage.queries.names import has_queries

#: The annotator the Cranfield judgments are recorded under.
DEMO_ANNOTATOR = "cleverdon"


def demo_dir() -> Path:
    """The folder of the demo files (inside the installed package or the checkout)."""
    return resources_dir() / "demo"


def demo_database_path() -> Path:
    """Where ``ndcg-studio --demo`` keeps its database: ``<user data dir>/demo.sqlite``."""
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "demo.sqlite"


def is_empty(db: Database) -> bool:
    """True when the database has no query yet (a first start)."""
    with db.engine.connect() as conn:
        return not has_queries(conn)


def demo_runs() -> dict[str, Path]:
    """The demo's run files by run name (``bm25-fulltext``, …), in name order."""
    return {run.stem.removeprefix("cranfield."): run for run in sorted(demo_dir().glob("*.run"))}


def load_demo(
    db: Database, *, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> str:
    """Import the Cranfield demo (documents, queries, judgments, runs). Idempotent.

    Returns a one-line summary. Raises OSError when the shipped files are missing.
    """
    from ndcg_studio.io.smart import CRANFIELD_GRADE_MAP
    from ndcg_studio.services.importing.service import ImportService  # not at the app's start-up

    base = demo_dir()
    cran = base / "cranfield"
    runs = demo_runs()
    service = ImportService(db)
    steps = 3 + len(runs)
    checkpoint(0, steps, progress, cancelled)
    service.import_smart(cran / "cran.all.1400", smart_kind="documents", cancelled=cancelled)
    checkpoint(1, steps, progress, cancelled)
    service.import_smart(
        cran / "cran.qry", smart_kind="queries", renumber=True, cancelled=cancelled
    )
    checkpoint(2, steps, progress, cancelled)
    service.import_qrels(
        cran / "cranqrel.trec",
        annotator=DEMO_ANNOTATOR,
        grade_map=CRANFIELD_GRADE_MAP,
        cancelled=cancelled,
    )
    for i, (name, run) in enumerate(runs.items(), start=3):
        checkpoint(i, steps, progress, cancelled)
        service.import_run(run, name=name, replace=True, cancelled=cancelled)
    checkpoint(steps, steps, progress, cancelled)
    return (
        "Cranfield demo loaded: 1,400 documents, 225 queries, Cleverdon's judgments "
        f"(annotator {DEMO_ANNOTATOR!r}), runs {', '.join(runs)}"
    )


#: The worked examples' runs: file name → run name (the document's 系统A/系统B, and the single
#: unnamed system of its step-by-step examples).
EXAMPLE_RUNS = {"example.run": "Example", "system_a.run": "System A", "system_b.run": "System B"}


def examples_dir() -> Path:
    """The folder of the Chinese worked examples (inside the installed package or checkout)."""
    return resources_dir() / "demo_examples"


def load_examples(
    db: Database, *, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> str:
    """Import the Chinese worked examples (3 queries, 17 documents, 19 judgments by annotator
    ``seed003``, runs ``Example``, ``System A``, ``System B``). Idempotent.

    Returns a one-line summary. Raises OSError when the shipped files are missing.
    """
    from ndcg_studio.services.importing.service import ImportService  # as in load_demo

    base = examples_dir()
    service = ImportService(db)
    steps = 3 + len(EXAMPLE_RUNS)
    checkpoint(0, steps, progress, cancelled)
    service.import_queries(base / "queries.tsv", cancelled=cancelled)
    checkpoint(1, steps, progress, cancelled)
    service.import_documents(base / "documents.csv", cancelled=cancelled)
    checkpoint(2, steps, progress, cancelled)
    service.import_judgments(base / "judgments.csv", cancelled=cancelled)
    for i, (file, name) in enumerate(EXAMPLE_RUNS.items(), start=3):
        checkpoint(i, steps, progress, cancelled)
        service.import_run(base / file, name=name, replace=True, cancelled=cancelled)
    checkpoint(steps, steps, progress, cancelled)
    return (
        "Chinese worked examples loaded: 3 queries (成都3天游, 成都美食推荐, 成都旅游攻略), "
        f"17 documents, grades 0-4, runs {', '.join(EXAMPLE_RUNS.values())}"
    )
