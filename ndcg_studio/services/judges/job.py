"""The machine-judge job: plan, dry run and run, with resume, progress and cancel.

**Resume.** A label is written, with its provenance, in a transaction of its own as soon as its
answer arrives (answers that arrive together share one). Before asking, the job leaves out every
item that already has a ``graded`` label of this annotator for the same template hash and model
(as asked), so after ``kill -9`` the same command asks only for what was not yet stored: no
stored label is lost and none is asked for twice. ``unparsed`` and ``failed`` labels are asked
again only with ``retry=True`` (``--retry-unparsed``).

**Progress.** ``progress(JudgeProgress)`` after every stored batch (and ``cancelled()`` is
checked there): items done of the total, requests and tokens so far, the ETA from the mean pace.
Cancel stops asking, waits for the requests in flight and stores their answers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from ndcg_studio.domain.judges.templates import Template
from ndcg_studio.services.judges.remote import JudgeStopped, fields_of
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judges.items import ItemText, item_texts
from ndcg_studio.storage.judges.labels import LabelRow, done_items, write_labels

__all__ = ["Backend", "DryRun", "JobPlan", "JudgeProgress", "dry_run", "run_job"]

#: Characters per token of the dry run's estimate (the usual rule of thumb for English text
#: with GPT-style tokenizers; a server's own count is recorded with each label).
CHARS_PER_TOKEN = 4


class Backend(Protocol):
    """What the job needs of a backend (``RemoteJudge``, ``LocalJudge``)."""

    chunk: int
    kind: str
    model: str
    template: Template

    def params(self) -> dict[str, Any]: ...

    def grade(self, items: Sequence[ItemText]) -> list[LabelRow]: ...

    def close(self) -> None: ...


@dataclass
class JobPlan:
    """What a run will do. ``todo``: the items to ask for (texts loaded); ``skipped``: items
    already graded with this template and model; ``annotator_id``: the source's annotator."""

    source: str
    annotator_id: int
    todo: list[ItemText]
    skipped: int


@dataclass
class JudgeProgress:
    """Counts so far (this run). ``eta``: seconds left at the mean pace (None before the
    first answer)."""

    total: int
    done: int = 0
    graded: int = 0
    unparsed: int = 0
    failed: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed: float = 0.0
    cancelled: bool = False
    stopped: str | None = None
    models: dict[str, int] = field(default_factory=dict)

    @property
    def eta(self) -> float | None:
        if not self.done:
            return None
        return self.elapsed / self.done * (self.total - self.done)

    def add(self, rows: Sequence[LabelRow], requests: int) -> None:
        self.requests += requests
        for r in rows:
            self.done += 1
            setattr(self, r.status, getattr(self, r.status) + 1)
            self.prompt_tokens += r.prompt_tokens or 0
            self.completion_tokens += r.completion_tokens or 0
            if r.model_reported:
                self.models[r.model_reported] = self.models.get(r.model_reported, 0) + 1


@dataclass(frozen=True)
class DryRun:
    """What a run would send: the exact messages of the first item to ask for, how many
    requests, and the tokens estimated (prompt: characters / :data:`CHARS_PER_TOKEN`;
    completion: the template's ``max_tokens`` per request, an upper bound)."""

    first: ItemText | None
    messages: list[dict[str, str]]
    requests: int
    skipped: int
    prompt_tokens: int
    completion_tokens: int


def plan_job(
    db: Database,
    source: str,
    backend: Backend,
    items: Sequence[tuple[int, int]],
    *,
    retry: bool = False,
    annotator_id: int | None = None,
) -> JobPlan:
    """The items of ``items`` still to ask for (see the module docstring), with their texts.
    ``annotator_id`` None: the source's annotator is looked up without being created (a dry
    run writes nothing) and nothing counts as done when it does not exist yet."""
    statuses = ("graded",) if retry else ("graded", "unparsed", "failed")
    with db.engine.connect() as conn:
        if annotator_id is None:
            from ndcg_studio.storage.queries.names import annotator_names

            found = [k for k, v in annotator_names(conn).items() if v == source]
            aid = found[0] if found else -1
        else:
            aid = annotator_id
        done = done_items(conn, aid, backend.template.digest, backend.model, statuses)
        todo = [it for it in dict.fromkeys(items) if it not in done]
        texts = item_texts(conn, todo)
    return JobPlan(source, aid, texts, len(set(items)) - len(todo))


def dry_run(plan: JobPlan, backend: Backend) -> DryRun:
    """The :class:`DryRun` of ``plan`` (nothing is sent or written)."""
    template = backend.template
    prompt_chars = 0
    for item in plan.todo:
        prompt_chars += sum(len(m["content"]) for m in template.render(fields_of(item)))
    first = plan.todo[0] if plan.todo else None
    chunks = -(-len(plan.todo) // backend.chunk)
    return DryRun(
        first=first,
        messages=template.render(fields_of(first)) if first else [],
        requests=chunks if backend.kind != "local" else 0,
        skipped=plan.skipped,
        prompt_tokens=-(-prompt_chars // CHARS_PER_TOKEN),
        completion_tokens=len(plan.todo) * template.max_tokens if backend.kind != "local" else 0,
    )


def _store(db: Database, plan: JobPlan, backend: Backend, rows: Sequence[LabelRow]) -> None:
    with db.engine.begin() as conn:
        write_labels(
            conn,
            plan.annotator_id,
            template_hash=backend.template.digest,
            template_name=backend.template.name,
            model=backend.model,
            params=json.dumps(backend.params(), sort_keys=True),
            rows=rows,
        )


def run_job(
    db: Database,
    plan: JobPlan,
    backend: Backend,
    *,
    concurrency: int = 4,
    max_requests: int | None = None,
    progress: Callable[[JudgeProgress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> JudgeProgress:
    """Ask ``backend`` for every item of ``plan.todo`` and store each answer as it arrives.

    Args:
        concurrency: requests in flight at once (>= 1; the local backend uses 1).
        max_requests: stop after starting this many requests (None: no bound).

    Returns:
        The final :class:`JudgeProgress` (``cancelled``, or ``stopped`` with the server's
        refusal: what was stored before stays).

    Raises:
        ValueError: ``concurrency`` < 1.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    chunks = [plan.todo[i : i + backend.chunk] for i in range(0, len(plan.todo), backend.chunk)]
    if max_requests is not None:
        chunks = chunks[:max_requests]
    state = JudgeProgress(total=sum(len(c) for c in chunks))
    start = time.monotonic()
    pending: set[Future[list[LabelRow]]] = set()
    queue = iter(chunks)
    stop = False
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="judge") as pool:
        try:
            while True:
                while not stop and len(pending) < 2 * concurrency:
                    chunk = next(queue, None)
                    if chunk is None:
                        break
                    pending.add(pool.submit(backend.grade, chunk))
                if not pending:
                    break
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                stop = _collect(db, plan, backend, finished, state) or stop
                state.elapsed = time.monotonic() - start
                if progress is not None and finished:
                    progress(state)
                if not stop and cancelled is not None and cancelled():
                    state.cancelled, stop = True, True
        except BaseException:  # Ctrl-C: store what arrived, ask for nothing more
            for future in pending:
                future.cancel()
            landed = [r for f in pending if f.done() and not f.cancelled() for r in _rows(f)]
            _store(db, plan, backend, landed)
            raise
    return state


def _collect(
    db: Database,
    plan: JobPlan,
    backend: Backend,
    finished: set[Future[list[LabelRow]]],
    state: JudgeProgress,
) -> bool:
    """Store the answers of ``finished`` requests in one transaction and count them; True when
    the server refused the job (:class:`JudgeStopped`, recorded in ``state.stopped``)."""
    rows: list[LabelRow] = []
    stopped = False
    for future in finished:
        try:
            rows.extend(future.result())
        except JudgeStopped as exc:
            state.stopped, stopped = str(exc), True
        state.requests += 1
    state.add(rows, 0)
    _store(db, plan, backend, rows)
    return stopped


def _rows(future: Future[list[LabelRow]]) -> list[LabelRow]:
    try:
        return future.result()
    except Exception:
        return []
