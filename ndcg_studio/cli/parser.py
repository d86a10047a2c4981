"""The command line of ``ndcg-studio``: every command's options (choices and defaults from
:mod:`ndcg_studio.vocabulary`, the shared option groups in :mod:`ndcg_studio.cli.options`),
parsing, and the normalisation of values that begin with "-"."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ndcg_studio import __version__
from ndcg_studio.cli.common import (
    RUNS_SEPARATOR,
    fraction,
    grade_map,
    positive_int,
    run_list,
    run_names,
)
from ndcg_studio.cli.options import (
    Command,
    add_agreement,
    add_commands,
    add_db,
    add_output,
    add_scoring,
)
from ndcg_studio.vocabulary import IMPORT_KINDS, INTERFACE_LANGUAGES

__all__ = ["build_parser", "normalize_argv", "parse_args"]

if TYPE_CHECKING:
    from ndcg_studio.cli.options import Subparsers


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ndcg-studio`` (used by :func:`ndcg_studio.app.main`)."""
    parser = argparse.ArgumentParser(
        prog="ndcg-studio",
        description="Judge search results and score runs with NDCG@K. "
        "Without a command, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=None,
        help="SQLite file or SQLAlchemy URL; default: $NDCG_STUDIO_DB, "
        "else studio.sqlite in the user data directory",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open the built-in Cranfield demo database (created on first use)",
    )
    parser.add_argument(
        "--lang",
        choices=INTERFACE_LANGUAGES,
        default=None,
        help="the desktop app's language for this run (default: View > Language, else the "
        "system's); commands print English",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_commands(sub, _COMMANDS)
    _add_demo(sub)
    from ndcg_studio.cli import campaign, changes, estimate, fetch, judge, runs, simulate, team
    from ndcg_studio.cli import eval as eval_command

    add_commands(sub, (simulate.COMMAND,))
    team.add_parser(sub)
    campaign.add_parser(sub)
    eval_command.add_parser(sub)
    add_commands(
        sub, (*judge.COMMANDS, estimate.COMMAND, fetch.COMMAND, runs.COMMAND, changes.COMMAND)
    )
    return parser


def _import_options(p: argparse.ArgumentParser) -> None:
    """The options of ``import KIND FILE`` (one file into the database)."""
    p.add_argument("kind", choices=IMPORT_KINDS, help="what the file holds")
    p.add_argument("file", help="the file to import")
    p.add_argument(
        "--name",
        help="run: the run's name (default: the file's tag column; "
        "a NAME starting with - : --name=NAME)",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="run: replace the run of that name if it exists (without it such an import is "
        "refused and nothing is written)",
    )
    p.add_argument(
        "--annotator",
        help="qrels: annotator name (default: the file's stem; "
        "a NAME starting with - : --annotator=NAME)",
    )
    p.add_argument(
        "--annotator-column",
        action="store_true",
        help="qrels: the second column holds the annotator's name",
    )
    p.add_argument(
        "--grade-map",
        metavar="FROM:TO,...",
        type=grade_map,
        help='qrels, judgments: map file grades to 0-4, e.g. "-1:0,5:4"',
    )
    p.add_argument(
        "--source",
        metavar="NAME",
        help="qrels, judgments: the file's annotators belong to this judgment source "
        "(a vendor's, a model's, a team's; created if missing)",
    )
    p.add_argument(
        "--source-kind",
        choices=("human", "vendor", "model"),
        default="human",
        help="qrels, judgments: the kind of --source (default human)",
    )
    p.add_argument(
        "--smart-kind",
        choices=("documents", "queries"),
        default=None,
        help="smart: what the file holds (default: guessed from .T/.A fields)",
    )
    p.add_argument(
        "--renumber",
        action="store_true",
        help="smart queries: number queries 1..n by position (Cranfield)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _score_options(p: argparse.ArgumentParser) -> None:
    """The options of ``score`` (nDCG@K and its parts for every (query, run))."""
    add_scoring(p)
    add_output(p)
    p.add_argument("--summary", action="store_true", help="one row per run: mean with 95%% CI")
    p.add_argument(
        "--measures",
        choices=("ndcg", "all"),
        default="ndcg",
        help="ndcg: NDCG@K and its parts (default); all: also ndcg_condensed, ap, recall, "
        "bpref, rbp, rbp_residual (measures for incomplete judgments; each relevance "
        "threshold is stated in the settings file; reads every result, not only the top K, "
        "so it takes about twice as long)",
    )
    p.add_argument(
        "--source",
        metavar="NAME",
        help="score against this judgment source's grades only (its annotators by --consensus; "
        "humans = the annotators of no source)",
    )
    p.add_argument(
        "--by-annotator",
        action="store_true",
        help="nDCG@K under each annotator's own grades: one row per query, run and annotator "
        "(long format; an annotator counts where they graded a document of the query's pool)",
    )


def _stability_options(p: argparse.ArgumentParser) -> None:
    """The options of ``stability`` (the run order under each grade set)."""
    p.add_argument(
        "--by",
        choices=("annotator", "source", "consensus"),
        default="annotator",
        help="the grade sets compared (default annotator)",
    )
    p.add_argument(
        "--min-coverage",
        type=fraction,
        default=0.5,
        metavar="F",
        help="--by annotator: an annotator takes part when they graded at least this share "
        "of every run's top K (default 0.5)",
    )
    p.add_argument(
        "--alpha",
        type=fraction,
        default=0.05,
        metavar="A",
        help="significance level of the paired randomization test (default 0.05)",
    )
    p.add_argument(
        "--resamples",
        type=positive_int,
        default=10_000,
        metavar="N",
        help="random sign flips per paired randomization test (default 10000; one test per "
        "two runs and grade set: fewer for many runs)",
    )
    add_scoring(p)
    add_output(p)


def _agreement_command_options(p: argparse.ArgumentParser) -> None:
    """The options of ``agreement`` (inter-annotator agreement)."""
    add_agreement(p)
    add_output(p)


def _export_options(p: argparse.ArgumentParser) -> None:
    """The kinds of ``export KIND`` (one export of the database), a subcommand each."""
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    add_commands(kinds, _EXPORT_KINDS)


def _report_options(k: argparse.ArgumentParser) -> None:
    add_scoring(k)
    add_agreement(k, by=False)
    add_output(k, formats=False)


def _judgments_options(k: argparse.ArgumentParser) -> None:
    k.add_argument(
        "--wide", action="store_true", help="one grade column per annotator (instead of long)"
    )
    add_output(k, formats=False)


def _qrels_options(k: argparse.ArgumentParser) -> None:
    add_scoring(k, runs=False, only_grades=True)
    add_output(k, formats=False, excel=False, file_format="trec")


def _agreement_options(k: argparse.ArgumentParser) -> None:
    add_agreement(k)
    add_output(k, formats=False)


def _compare_options(k: argparse.ArgumentParser) -> None:
    """Two runs, or N runs pair by pair."""
    add_scoring(k, runs=False)
    k.add_argument(
        "--runs",
        type=run_list,
        metavar="RUN",
        help="the runs, two or more (not needed when the database has exactly two); the two "
        "words after --runs are always names, even when they start with -, the following "
        "ones up to the next word starting with -; or --runs=RUN_A,RUN_B,RUN_C",
    )
    k.add_argument(
        "--correction",
        choices=("tukey", "holm"),
        default=None,
        help="p_adjusted: tukey = topic-blocked randomised Tukey HSD over all pairs "
        "(Carterette 2012; default without --baseline), holm = Holm-Bonferroni over the "
        "pairs with the baseline(s) (default with --baseline); with two runs, asks for the "
        "pair table instead of the per-query deltas",
    )
    k.add_argument(
        "--baseline",
        type=run_names,
        metavar="RUN",
        help="only the pairs with these runs (one or more, among --runs), baseline as run_a",
    )
    add_output(k, formats=False)


#: ``export KIND``: each kind's name, help line, description and the options it takes after
#: ``--db``, in the order ``export --help`` lists them
_EXPORT_KINDS: tuple[Command, ...] = (
    (
        "report",
        "CSV: one row per (query, run): scores, query text, per-query alpha",
        "CSV: one row per (query, run) with every score column, the query text "
        "and the query's alpha.",
        _report_options,
    ),
    (
        "judgments",
        "CSV: every judgment (re-importable with `import judgments`)",
        "CSV: every judgment, long (query_id,doc_id,annotator,grade,note,"
        "updated_at; re-importable with `import judgments`) or wide.",
        _judgments_options,
    ),
    (
        "qrels",
        "TREC qrels of the consensus or one annotator's grades",
        "TREC qrels (qid 0 docno grade) of the consensus grades or of one "
        "annotator's; re-importable with `import qrels`.",
        _qrels_options,
    ),
    (
        "agreement",
        "CSV: inter-annotator agreement statistics",
        "CSV: inter-annotator agreement statistics (as `agreement --format csv`).",
        _agreement_options,
    ),
    (
        "compare",
        "CSV: two runs per query, or N runs pair by pair with corrected p-values",
        "Two runs without --correction/--baseline: per-query nDCG of both and "
        "their delta (query_id,ndcg_A,ndcg_B,delta), the paired test in the settings file. "
        "More than two runs, or --correction or --baseline: one row per pair, "
        "run_a,run_b,mean_a,mean_b,delta,ci_low,ci_high,effect_size,p,p_adjusted "
        "(delta = mean_a - mean_b over the queries every run has a value for; 95% bootstrap "
        "interval; effect size = delta / sqrt(residual mean square of the two-way ANOVA); p = "
        "paired randomization test); the ANOVA table and the smallest delta these queries "
        "detect at 80% power go to the settings file. See docs/statistics.md.",
        _compare_options,
    ),
)


#: The commands with ``--db`` first: each one's name, help line, description and the options
#: it takes after ``--db``, in the order ``ndcg-studio --help`` lists them
_COMMANDS: tuple[Command, ...] = (
    (
        "import",
        "import runs, qrels, judgments, queries, documents (creates the database)",
        "Import one file into the database (created if missing). A bad file is "
        "reported as FILE:LINE: field: message, exit 2, and nothing is written.",
        _import_options,
    ),
    (
        "score",
        "NDCG@K and its parts for every (query, run)",
        "NDCG@K and its parts for every (query, run) of an existing database.",
        _score_options,
    ),
    (
        "stability",
        "would the decision change under other grades? run orders, tau, flips",
        "The runs' order by mean nDCG@K under each grade set (each annotator with "
        "enough coverage, each judgment source, or each consensus rule); one row per pair of "
        "grade sets: Kendall's tau-b, tau_AP, the run pairs whose order or significance flips. "
        "With two runs the settings file (or the notes) holds the sentence 'A better than B "
        "under N of M grade sets; flips under ...'.",
        _stability_options,
    ),
    (
        "agreement",
        "inter-annotator agreement (alpha, kappa, spread)",
        "Inter-annotator agreement of an existing database's judgments.",
        _agreement_command_options,
    ),
    (
        "export",
        "write reports, judgments, qrels, agreement, comparisons",
        "Write one export of an existing database; "
        "`ndcg-studio export KIND --help` lists the options of each kind.",
        _export_options,
    ),
)


def _add_demo(sub: Subparsers) -> None:
    """``demo``: the Cranfield demo collection (or the worked examples)."""
    p = sub.add_parser(
        "demo",
        help="load the Cranfield demo collection into the database",
        description="Load the Cranfield demo collection into the database (created if missing).",
    )
    p.add_argument(
        "--examples",
        action="store_true",
        help="load the small Chinese worked examples instead (成都 queries, grades 0-4, "
        "Systems A and B; score them with --k 5)",
    )
    add_db(p)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Parse ``argv`` (after :func:`normalize_argv`); an option the command does not take is
    refused by that command's own parser (its usage line, exit 2), not by the top level's."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        words = [w for w in (args.command, getattr(args, "kind", None)) if w]
        target = parser
        for word in words:
            target = _subparsers(target).get(word, target)
        help_hint = f" (see ndcg-studio {' '.join(words)} --help)" if words else ""
        target.error(f"unrecognized arguments: {' '.join(extra)}{help_hint}")
    return args


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


#: Options whose value may begin with "-" (``--grade-map "-1:0,5:4"``, ``--name -run2``);
#: argparse would take such a value for an option, so :func:`normalize_argv` glues it to its
#: option. The number is how many values follow the option; ``None``: every word up to the
#: next option of any ``ndcg-studio`` command (``--runs A B C -o F``).
_DASH_VALUE_OPTIONS: dict[str, int | None] = {
    "--grade-map": 1,
    "--gains": 1,
    "--name": 1,
    "--annotator": 1,
    "--source": 1,
    "--run": 1,
    "--runs": None,
    "--baseline": None,
    "--annotators": None,
}


def _option_strings() -> frozenset[str]:
    """Every option string of every command and export kind (``--db``, ``-o``, …)."""
    found: set[str] = set()
    pending = [build_parser()]
    while pending:
        parser = pending.pop()
        for action in parser._actions:
            found.update(action.option_strings)
        pending.extend(_subparsers(parser).values())
    return frozenset(found)


def normalize_argv(argv: list[str]) -> list[str]:
    """``["--grade-map", "-1:0"]`` → ``["--grade-map=-1:0"]`` so a leading minus works.

    The words after ``--grade-map``, ``--gains``, ``--name``, ``--annotator``, ``--run`` (one)
    are their values whatever they start with; ``--runs``, ``--baseline`` and ``--annotators``
    take every word up to the next option string of ``ndcg-studio`` (a run named like an
    option, e.g. ``-o``, is given as ``--runs=-o,other``). ``--runs A B`` becomes
    ``--runs=A<NUL>B``: NUL cannot occur in a command-line word, so any names survive, and
    :func:`run_names` splits them. Nothing after a bare ``--`` is changed.
    """
    out: list[str] = []
    options: frozenset[str] | None = None
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            out.extend(argv[i:])
            break
        if word not in _DASH_VALUE_OPTIONS:
            out.append(word)
            i += 1
            continue
        n = _DASH_VALUE_OPTIONS[word]
        if n is None:
            if options is None:
                options = _option_strings()
            end = i + 1
            while end < len(argv) and argv[end] not in options and argv[end] != "--":
                end += 1
            n = end - i - 1
        if n == 0 or i + n >= len(argv):
            out.append(word)
            i += 1
            continue
        out.append(f"{word}={RUNS_SEPARATOR.join(argv[i + 1 : i + 1 + n])}")
        i += 1 + n
    return out
