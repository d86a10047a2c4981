"""``ndcg-studio judge``: grade pooled items with a machine judge; ``ndcg-studio judges``: every
machine source's provenance and its agreement with the humans.

Registered by :func:`ndcg_studio.cli.parser.build_parser` (:data:`COMMANDS`); the use cases
are :mod:`ndcg_studio.services.judges`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ndcg_studio.cli.common import UsageError, checked_number, open_db, positive_int, run_names
from ndcg_studio.cli.options import Command

__all__ = ["COMMANDS", "judge_command", "judges_command"]

#: ``--prompt`` names of the shipped templates (domain.judges.templates.SHIPPED; checked equal
#: by the tests, so the parser need not import the domain).
SHIPPED_PROMPTS = ("umbrela", "thomas")


def _rate(text: str) -> float:
    return checked_number(text, float, lambda v: v > 0, "be > 0")


def _judge_options(p: argparse.ArgumentParser) -> None:
    """The options of ``judge`` after ``--db``."""
    p.add_argument("--source", required=True, metavar="NAME", help="the model source to fill")
    p.add_argument(
        "--backend",
        choices=("openai", "local"),
        default="openai",
        help="an OpenAI-compatible server (default) or the offline model (local-judge extra)",
    )
    p.add_argument("--base-url", metavar="URL", help="the server's API root (openai backend)")
    p.add_argument("--model", metavar="M", help="the model name (openai backend)")
    p.add_argument(
        "--prompt",
        default="umbrela",
        metavar="umbrela|thomas|FILE",
        help="a shipped template or a TOML template file (default umbrela)",
    )
    what = p.add_argument_group("items (exactly one)")
    what.add_argument("--runs", type=run_names, metavar="RUN", help="runs whose pool to grade")
    what.add_argument("--depth", type=positive_int, metavar="D", help="pool depth of --runs")
    what.add_argument("--campaign", metavar="C", help="a campaign's items")
    what.add_argument("--pairs", metavar="FILE", help="QUERY DOCUMENT per line (or qrels)")
    p.add_argument(
        "--concurrency", type=positive_int, default=4, metavar="N", help="requests in flight (4)"
    )
    p.add_argument("--max-requests", type=positive_int, metavar="N", help="stop after N")
    p.add_argument("--rate", type=_rate, metavar="R", help="at most R requests per second")
    p.add_argument("--temperature", type=float, default=0.0, metavar="T", help="sampling (0)")
    p.add_argument("--timeout", type=_rate, default=60.0, metavar="S", help="seconds/attempt")
    p.add_argument("--max-retries", type=int, default=6, metavar="N", help="per item (6)")
    p.add_argument(
        "--retry-unparsed",
        action="store_true",
        help="ask again for items whose answer could not be read or did not come",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the exact prompt of one item, the number of requests and tokens; send "
        "and write nothing",
    )


#: ``judge`` (grade with a machine) and ``judges`` (provenance and trust): each one's name, help
#: line, description and options (after ``--db``)
COMMANDS: tuple[Command, ...] = (
    (
        "judge",
        "grade pooled items with a machine judge (an LLM server or a local model)",
        "Grade items with a machine judge and store the grades as the judgments "
        "of a source of kind model, with the provenance of each label. Run the same command "
        "again to continue after a stop: items already graded with the same template and "
        "model are never asked for again. The API key comes from $NDCG_STUDIO_API_KEY, "
        "$OPENAI_API_KEY or the system keyring (service ndcg-studio, user = the server's "
        "host:port); it is never stored.",
        _judge_options,
    ),
    (
        "judges",
        "machine sources: provenance, and agreement with the humans",
        "For every annotator with machine labels: labels by status, the models "
        "(as the server reported them) and templates of its current labels — flagged MIXED "
        "when there is more than one — and tokens; then Cohen's kappa (unweighted, linear), "
        "Krippendorff's alpha, and each grade's precision and recall against the humans.",
        None,
    ),
)


def _template(prompt: str) -> Any:
    from ndcg_studio.domain.judges.templates import shipped_template
    from ndcg_studio.io.judge_files import read_template

    return shipped_template(prompt) if prompt in SHIPPED_PROMPTS else read_template(prompt)


def _items(db: Any, args: argparse.Namespace) -> list[tuple[int, int]]:
    from ndcg_studio.io.judge_files import read_pairs
    from ndcg_studio.services.judges.items import job_items

    pairs = read_pairs(args.pairs) if args.pairs else None
    return job_items(
        db,
        runs=args.runs,
        depth=args.depth,
        campaign=args.campaign,
        pairs=pairs,
        pairs_file=args.pairs or "pairs",
    )


def _backend(db: Any, args: argparse.Namespace, template: Any) -> Any:
    if args.backend == "local":
        from ndcg_studio.services.judges.local import local_judge

        return local_judge(db)
    if not args.base_url or not args.model:
        raise UsageError("--backend openai needs --base-url URL and --model M")
    from ndcg_studio.services.judges.keys import api_key
    from ndcg_studio.services.judges.remote import RemoteJudge

    key, _ = api_key(args.base_url)
    return RemoteJudge(
        args.base_url,
        args.model,
        template,
        api_key=key,
        temperature=args.temperature,
        timeout=args.timeout,
        max_retries=args.max_retries,
        rate=args.rate,
    )


def _print_dry_run(args: argparse.Namespace, backend: Any, plan: Any) -> None:
    from ndcg_studio.services.judges.job import CHARS_PER_TOKEN, dry_run

    d = dry_run(plan, backend)
    out = sys.stdout
    print(f"template: {backend.template.name} sha256 {backend.template.digest[:12]}", file=out)
    if d.first is not None:
        print(f"prompt of query {d.first.query}, document {d.first.doc}:", file=out)
        for m in d.messages:
            print(f"--- {m['role']} ---\n{m['content']}", file=out)
        print("---", file=out)
    print(
        f"items: {len(plan.todo)} to grade, {d.skipped} already graded with this template "
        f"and model",
        file=out,
    )
    if backend.kind == "local":
        print("requests: none (local model)", file=out)
    else:
        print(
            f"requests: {d.requests}; tokens (estimated): {d.prompt_tokens} prompt "
            f"(characters / {CHARS_PER_TOKEN}) + at most {d.completion_tokens} completion",
            file=out,
        )


def judge_command(args: argparse.Namespace) -> int:
    """Run ``ndcg-studio judge`` (see :data:`COMMANDS`)."""
    from ndcg_studio.services.judges.job import plan_job, run_job
    from ndcg_studio.services.judges.source import open_model_source

    template = _template(args.prompt)
    db = open_db(args)
    items = _items(db, args)
    backend = _backend(db, args, template)
    try:
        if args.dry_run:
            plan = plan_job(db, args.source, backend, items, retry=args.retry_unparsed)
            _print_dry_run(args, backend, plan)
            return 0
        annotator = open_model_source(db, args.source)
        plan = plan_job(
            db, args.source, backend, items, retry=args.retry_unparsed, annotator_id=annotator
        )
        try:
            state = _run_with_bar(db, plan, backend, args, run_job)
        except KeyboardInterrupt:
            print(
                "ndcg-studio judge: cancelled; the answers received are stored: the same "
                "command continues",
                file=sys.stderr,
            )
            return 130
    finally:
        backend.close()
    _print_summary(db, args.source, plan, state)
    return 1 if state.stopped else 0


def _run_with_bar(db: Any, plan: Any, backend: Any, args: argparse.Namespace, run: Any) -> Any:
    from tqdm import tqdm

    bar = tqdm(
        total=min(len(plan.todo), (args.max_requests or 10**12) * backend.chunk),
        desc=f"judge {args.source}",
        unit="item",
        disable=None,
        file=sys.stderr,
    )

    def progress(state: Any) -> None:
        bar.update(state.done - bar.n)
        bar.set_postfix(
            requests=state.requests,
            tokens=state.prompt_tokens + state.completion_tokens,
            unparsed=state.unparsed,
            failed=state.failed,
            refresh=False,
        )

    try:
        concurrency = args.concurrency if backend.kind != "local" else 1
        return run(
            db,
            plan,
            backend,
            concurrency=concurrency,
            max_requests=args.max_requests,
            progress=progress,
        )
    finally:
        bar.close()


def _print_summary(db: Any, source: str, plan: Any, state: Any) -> None:
    from ndcg_studio.services.judges.trust import provenance_of

    print(
        f"{source}: {state.graded} graded, {state.unparsed} unparsed, {state.failed} failed "
        f"({state.done} of {len(plan.todo)} asked; {plan.skipped} already graded); "
        f"{state.requests} requests, {state.prompt_tokens} prompt + "
        f"{state.completion_tokens} completion tokens"
    )
    for p in provenance_of(db, source):
        if p.mixed:
            models = ", ".join(f"{m} ({n})" for m, n in sorted(p.models.items()))
            templates = ", ".join(f"{t} ({n})" for t, n in sorted(p.templates.items()))
            print(f"MIXED: {source}'s labels come from models {models}; templates {templates}")
    if state.unparsed or state.failed:
        print("ask again for the unparsed and failed items with --retry-unparsed")
    if state.stopped:
        print(f"stopped: {state.stopped}", file=sys.stderr)


def judges_command(args: argparse.Namespace) -> int:
    """Run ``ndcg-studio judges``: provenance and trust of every machine source."""
    from ndcg_studio.services.judges.trust import trust_lines

    db = open_db(args)
    for line in trust_lines(db):
        print(line)
    return 0
