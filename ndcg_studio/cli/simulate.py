"""``ndcg-studio simulate``: replay judging a pool in a strategy's order (reads, never writes).

Added by :func:`ndcg_studio.cli.parser.build_parser` (:data:`COMMAND`) and
:data:`ndcg_studio.cli.handlers.HANDLERS` (:func:`simulate_command`).
"""

from __future__ import annotations

import argparse

from ndcg_studio.cli.common import (
    UsageError,
    checked_number,
    nan_to_empty,
    open_db,
    positive_int,
    run_names,
)
from ndcg_studio.cli.options import Command, add_output
from ndcg_studio.vocabulary import CONSENSUS_METHODS, DEFAULT_CONSENSUS

STRATEGY_CHOICES = ("depth", "mtf", "bandit", "ab")


def _simulate_options(p: argparse.ArgumentParser) -> None:
    """The options of ``simulate`` after ``--db``."""
    p.add_argument(
        "--runs",
        type=run_names,
        required=True,
        metavar="RUN",
        help="two or more runs (--runs A B C, or --runs=A,B,C for names starting with -)",
    )
    p.add_argument(
        "--strategy",
        choices=STRATEGY_CHOICES,
        required=True,
        help="judging order: depth (shuffled pool, the baseline), mtf (move-to-front), "
        "bandit (discounted MaxMean, our reading of Losada et al. 2017; see --bandit-*), ab "
        "(largest possible change of the pair's delta DCG@K first)",
    )
    bandit = p.add_argument_group(
        "bandit (discounted MaxMean; on bandit-built pools see Voorhees, CIKM 2018)"
    )
    bandit.add_argument(
        "--bandit-discount",
        type=_discount,
        default=0.9,
        metavar="LAMBDA",
        help="weight of a run's older rewards, in (0, 1]; 1 is stationary MaxMean (default 0.9)",
    )
    bandit.add_argument(
        "--bandit-no-free-reward",
        action="store_true",
        help="a document already judged through another run is skipped without counting as "
        "the run's reward",
    )
    bandit.add_argument(
        "--bandit-last-only",
        action="store_true",
        help="the last-judgment-only variant: a run's estimate is its last reward alone and a "
        "run that hit is pulled again (--bandit-discount unused)",
    )
    p.add_argument("--depth", type=positive_int, required=True, help="pool depth D")
    p.add_argument("--k", type=positive_int, default=10, help="cutoff K of nDCG@K (default 10)")
    p.add_argument(
        "--step", type=positive_int, default=50, help="judgments between rows (default 50)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the depth shuffle and ab ties")
    p.add_argument(
        "--annotator", metavar="NAME", help="this annotator's grades (default: consensus)"
    )
    p.add_argument(
        "--consensus",
        choices=CONSENSUS_METHODS,
        default=DEFAULT_CONSENSUS,
        help="how several annotators' grades combine when no --annotator is given (default mean)",
    )
    add_output(p, default="csv")


#: ``simulate``: its name, help line, description and options (after ``--db``)
COMMAND: Command = (
    "simulate",
    "simulate judging the depth-D pool in a strategy's order (never writes)",
    "Hide the judgments (of --annotator, else the consensus) of the depth-D pool "
    "of the runs, reveal them in the strategy's order and write one row per --step "
    "judgments: strategy,judgments,pairs_decided,pairs_correct,kendall_tau,mae.",
    _simulate_options,
)


def _discount(text: str) -> float:
    return checked_number(text, float, lambda v: 0 < v <= 1, "lie in (0, 1]")


def simulate_command(args: argparse.Namespace) -> int:
    from ndcg_studio.cli.commands import write_rows
    from ndcg_studio.domain.pooling.strategies import BanditParams
    from ndcg_studio.services.exporting.tables import About
    from ndcg_studio.services.simulation import SIMULATION_COLUMNS, load_problem, simulate

    if len(args.runs) < 2:
        raise UsageError(f"simulate needs two or more runs, got {len(args.runs)}")
    db = open_db(args)
    try:
        problem = load_problem(
            db,
            args.runs,
            depth=args.depth,
            k=args.k,
            annotator=args.annotator,
            consensus=args.consensus,
        )
    finally:
        db.dispose()
    bandit = BanditParams(
        discount=args.bandit_discount,
        free_reward=not args.bandit_no_free_reward,
        last_only=args.bandit_last_only,
    )
    result = simulate(problem, args.strategy, step=args.step, seed=args.seed, bandit=bandit)
    rows = [[nan_to_empty(v) for v in r] for r in result.rows]
    runs = ",".join(args.runs)
    who = f"--annotator {args.annotator}" if args.annotator else f"--consensus {args.consensus}"
    about = About(
        "simulate",
        f"simulate --runs={runs} --strategy {args.strategy} --depth {args.depth} --k {args.k} "
        f"--step {args.step} --seed {args.seed} {who}",
        notes=[f"bandit: {bandit.describe()}"] if args.strategy == "bandit" else [],
    )
    write_rows(args, SIMULATION_COLUMNS, rows, about)
    return 0
