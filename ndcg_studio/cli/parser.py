"""The command line of ``ndcg-studio``: every command's options (choices and defaults from
:mod:`ndcg_studio.vocabulary`), parsing, and the normalisation of values that begin with "-"."""

from __future__ import annotations

import argparse

from ndcg_studio import __version__
from ndcg_studio.cli.common import (
    RUNS_SEPARATOR,
    fraction,
    gains_map,
    grade_map,
    positive_int,
    run_list,
    run_names,
)
from ndcg_studio.vocabulary import (
    ALPHA_LEVELS,
    CONSENSUS_METHODS,
    DEFAULT_CONSENSUS,
    DEFAULT_DISPUTED_RANGE,
    DEFAULT_GAIN,
    DEFAULT_IDEAL,
    DEFAULT_LEVEL,
    DEFAULT_ORDER,
    DEFAULT_SCOPE,
    GAINS,
    IDEALS,
    IMPORT_KINDS,
    INTERFACE_LANGUAGES,
    ORDERS,
    SCOPES,
)


def add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=argparse.SUPPRESS,
        help="SQLite file or SQLAlchemy URL (postgresql://user@host/db); "
        "default: $NDCG_STUDIO_DB, else a file in the user data directory",
    )


def _add_output(
    parser: argparse.ArgumentParser,
    *,
    formats: bool = True,
    excel: bool = True,
    file_format: str = "csv",
) -> None:
    """``--format``, ``--output`` (and ``--excel``): with ``formats`` an aligned table, CSV or
    an xlsx workbook; else ``file_format`` (the file kind: ``csv``, qrels ``trec``) or xlsx."""
    if formats:
        parser.add_argument(
            "--format",
            choices=("table", "csv", "xlsx"),
            default="table",
            help="an aligned table for reading (default), CSV (header on line 1) or an Excel "
            "workbook (needs --output F.xlsx; the settings on its second sheet)",
        )
    else:
        parser.add_argument(
            "--format",
            choices=(file_format, "xlsx"),
            default=file_format,
            help=f"{file_format} (default) or an Excel workbook (needs --output F.xlsx; "
            "numbers as numbers, ids as text, the settings on its second sheet)",
        )
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        default="-",
        help="write to FILE (its folder must exist; the settings go to FILE's stem + "
        ".settings.json beside it); default: standard output",
    )
    if excel:
        parser.add_argument(
            "--excel",
            action="store_true",
            help="CSV with a UTF-8 BOM so Excel detects the encoding",
        )


def _add_scoring(
    parser: argparse.ArgumentParser, *, runs: bool = True, only_grades: bool = False
) -> None:
    title = "grades" if only_grades else "scoring (defaults follow trec_eval ndcg_cut)"
    g = parser.add_argument_group(title)
    if not only_grades:
        g.add_argument("--k", type=positive_int, default=10, help="cutoff K >= 1 (default 10)")
        g.add_argument(
            "--gain",
            choices=GAINS,
            default=DEFAULT_GAIN,
            help="gain of grade g: g (linear, trec_eval; default) or 2^g - 1 (exponential)",
        )
        g.add_argument(
            "--gains",
            metavar="G:GAIN,...",
            type=gains_map,
            help="custom gain per grade, e.g. 0:0,1:1,2:3,3:7,4:15 (overrides --gain)",
        )
        g.add_argument(
            "--ideal",
            choices=IDEALS,
            default=DEFAULT_IDEAL,
            help="ideal DCG from all judged documents of the query (trec_eval; default) "
            "or from the returned list only",
        )
        g.add_argument(
            "--order",
            choices=ORDERS,
            default=DEFAULT_ORDER,
            help="run order: score desc, docno desc (trec_eval; default) or the file's rank column",
        )
    g.add_argument(
        "--consensus",
        choices=CONSENSUS_METHODS,
        default=DEFAULT_CONSENSUS,
        help="how several annotators' grades of a document make one (default mean)",
    )
    g.add_argument(
        "--annotator",
        metavar="NAME",
        help="use this annotator's grades only (a NAME starting with - : --annotator=NAME)",
    )
    if runs:
        g.add_argument(
            "--run",
            metavar="NAME",
            action="append",
            help="only this run (repeatable; a NAME starting with - : --run=NAME)",
        )


def _add_agreement(parser: argparse.ArgumentParser, *, by: bool = True) -> None:
    parser.add_argument(
        "--level",
        choices=ALPHA_LEVELS,
        default=DEFAULT_LEVEL,
        help="level of measurement of Krippendorff's alpha (default ordinal)",
    )
    if by:
        parser.add_argument(
            "--by",
            choices=SCOPES,
            default=DEFAULT_SCOPE,
            help="one row per statistic for all judgments (default), or per query, "
            "annotator, pair of annotators or item",
        )
        parser.add_argument(
            "--disputed-range",
            type=positive_int,
            default=DEFAULT_DISPUTED_RANGE,
            metavar="N",
            help=f"an item is disputed when max-min grade >= N (default {DEFAULT_DISPUTED_RANGE})",
        )


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

    p = sub.add_parser(
        "import",
        help="import runs, qrels, judgments, queries, documents (creates the database)",
        description="Import one file into the database (created if missing). A bad file is "
        "reported as FILE:LINE: field: message, exit 2, and nothing is written.",
    )
    add_db(p)
    p.add_argument("kind", choices=IMPORT_KINDS, help="what the file holds")
    p.add_argument("file", help="the file to import")
    p.add_argument(
        "--name",
        help="run: the run's name (default: the file's tag column; "
        "a NAME starting with - : --name=NAME)",
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

    p = sub.add_parser(
        "score",
        help="NDCG@K and its parts for every (query, run)",
        description="NDCG@K and its parts for every (query, run) of an existing database.",
    )
    add_db(p)
    _add_scoring(p)
    _add_output(p)
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

    p = sub.add_parser(
        "stability",
        help="would the decision change under other grades? run orders, tau, flips",
        description="The runs' order by mean nDCG@K under each grade set (each annotator with "
        "enough coverage, each judgment source, or each consensus rule); one row per pair of "
        "grade sets: Kendall's tau-b, tau_AP, the run pairs whose order or significance flips. "
        "With two runs the settings file (or the notes) holds the sentence 'A better than B "
        "under N of M grade sets; flips under ...'.",
    )
    add_db(p)
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
    _add_scoring(p)
    _add_output(p)

    p = sub.add_parser(
        "agreement",
        help="inter-annotator agreement (alpha, kappa, spread)",
        description="Inter-annotator agreement of an existing database's judgments.",
    )
    add_db(p)
    _add_agreement(p)
    _add_output(p)

    p = sub.add_parser(
        "export",
        help="write reports, judgments, qrels, agreement, comparisons",
        description="Write one export of an existing database; "
        "`ndcg-studio export KIND --help` lists the options of each kind.",
    )
    add_db(p)
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    k = kinds.add_parser(
        "report",
        help="CSV: one row per (query, run): scores, query text, per-query alpha",
        description="CSV: one row per (query, run) with every score column, the query text "
        "and the query's alpha.",
    )
    add_db(k)
    _add_scoring(k)
    _add_agreement(k, by=False)
    _add_output(k, formats=False)
    k = kinds.add_parser(
        "judgments",
        help="CSV: every judgment (re-importable with `import judgments`)",
        description="CSV: every judgment, long (query_id,doc_id,annotator,grade,note,"
        "updated_at; re-importable with `import judgments`) or wide.",
    )
    add_db(k)
    k.add_argument(
        "--wide", action="store_true", help="one grade column per annotator (instead of long)"
    )
    _add_output(k, formats=False)
    k = kinds.add_parser(
        "qrels",
        help="TREC qrels of the consensus or one annotator's grades",
        description="TREC qrels (qid 0 docno grade) of the consensus grades or of one "
        "annotator's; re-importable with `import qrels`.",
    )
    add_db(k)
    _add_scoring(k, runs=False, only_grades=True)
    _add_output(k, formats=False, excel=False, file_format="trec")
    k = kinds.add_parser(
        "agreement",
        help="CSV: inter-annotator agreement statistics",
        description="CSV: inter-annotator agreement statistics (as `agreement --format csv`).",
    )
    add_db(k)
    _add_agreement(k)
    _add_output(k, formats=False)
    k = kinds.add_parser(
        "compare",
        help="CSV: two runs per query, or N runs pair by pair with corrected p-values",
        description="Two runs without --correction/--baseline: per-query nDCG of both and "
        "their delta (query_id,ndcg_A,ndcg_B,delta), the paired test in the settings file. "
        "More than two runs, or --correction or --baseline: one row per pair, "
        "run_a,run_b,mean_a,mean_b,delta,ci_low,ci_high,effect_size,p,p_adjusted "
        "(delta = mean_a - mean_b over the queries every run has a value for; 95% bootstrap "
        "interval; effect size = delta / sqrt(residual mean square of the two-way ANOVA); p = "
        "paired randomization test); the ANOVA table and the smallest delta these queries "
        "detect at 80% power go to the settings file. See docs/statistics.md.",
    )
    add_db(k)
    _add_scoring(k, runs=False)
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
    _add_output(k, formats=False)

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
    from ndcg_studio.cli import campaign, simulate, team
    from ndcg_studio.cli import eval as eval_command

    simulate.add_parser(sub, add_db)
    team.add_parser(sub)
    campaign.add_parser(sub, add_db)
    eval_command.add_parser(sub)
    return parser


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
    are their values whatever they start with; ``--runs`` and ``--baseline`` take every word up
    to the next option string of ``ndcg-studio`` (a run named like an option, e.g. ``-o``, is
    given as ``--runs=-o,other``). ``--runs A B`` becomes ``--runs=A<NUL>B``: NUL cannot occur
    in a command-line word, so any names survive, and :func:`run_names` splits them. Nothing
    after a bare ``--`` is changed.
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
