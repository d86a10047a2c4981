"""Prediction-powered estimates (``ndcg-studio estimate``) on real LLM grades and synthetic data:
coverage, width against human grades alone, and the human grades needed to decide run pairs.

Data (read from ../shared only, never copied: the human grades carry no licence):

* LLMJudge (``/work/shared/data/llmjudge_dl23``; TREC DL 2023, 25 queries, 4,423 pairs with NIST
  grades 0-3 and 33 LLM label sets on exactly those pairs). The TREC 2023 runs are not public,
  so six runs are built over each query's judged pairs (every judged passage ranked, ties by
  passage id): ``noisy-0.5``, ``noisy-1``, ``noisy-1.5`` (the human grade plus Gaussian noise
  of that standard deviation, numpy seeds 1-3), and ``by-llama70b``, ``by-h2oloo``,
  ``by-prophet`` (the grades of the label sets RMITIR-llama70B, h2oloo-zeroshot1,
  prophet-setting1 plus uniform noise in [0, 0.1) to break ties, seeds 4-6). The universe is
  the depth-10 pool of these runs (as ``ndcg-studio simulate``); nDCG@10 with the ideal from the
  pool (``domain.verdict.estimates.ndcg_matrix``). The all-human value is the mean over the 25
  queries under the NIST grades; the machine judges are label sets not used to build runs:
  willia-umbrela1, Olz-gpt4o, RMITIR-GPT4o, TREMA-nuggets (the poorest, kappa 0.06), and a
  summary over all 33.
* TREC DL 2019 passage (``/work/shared/data/trec_dl19_passage``, 43 queries, NIST grades 0-3)
  with the six runs ``bench_pooling.dl19_db`` derives from its BM25 run (bm25, two noise
  variants, reverse10, rrf, skip3; imported from there) and their depth-10 pool; the machine is
  the local judge (``services.judges.local``: all-MiniLM-L6-v2, thresholds fitted on the NIST
  grades of all 43 queries, a few numbers, so the machine depends on the human grades only
  through them). It needs the MS MARCO passages of the judged and pooled pairs
  (``--dl19-passages``, ``pid<TAB>text`` a line: the collection's own file or a subset), which
  the shared data does not hold; the pool is graded once and cached (``--cache``, outside the
  repository, like the passages). Without either the part is skipped with the reason.
* Synthetic: 50 queries, the all-human value ~ Beta(2, 3) per query; a ``good`` machine (the
  human value + N(0.1, 0.05): biased but close), ``fair`` (+ N(0, 0.2)), ``poor`` (an
  independent Beta(2, 3): no information). One mean.

Per setting and number n of human-judged queries (3, 5, 10, 12, 15; a uniform sample without
replacement, ``--samples`` samples, seeded): the coverage of the all-human value by the 95 %
PPI++ interval and by the human-only interval on the same queries, over every run (and every
run pair's difference) and sample, with its Clopper-Pearson interval; the median ratio of the
widths (PPI / human-only) and the median effective sample size gain (se_human / se_ppi)². The
normal intervals are computed for every n here, also below ``MIN_HUMAN_QUERIES`` where the
command gives none.

The ``ppi`` campaign order (``services.campaigns.setup``): for each pair alone, the queries
drawn independently with π_i from the judge's |Δ nDCG@10| of the pair on query i (20 %
uniform), the active estimate (``domain.estimation.active``, inverse-probability weighted) and
no interval with fewer than ``MIN_HUMAN_QUERIES`` drawn, as ``estimate --campaign``; its
coverage of the pair differences per expected n (12, 15, 20) over the samples with an interval.

Decisions (LLMJudge and DL 2019, 15 pairs each): for each pair the fewest human-judged queries
from which at least half the samples (at most 1,000) decide it correctly (the interval excludes
0 on the right side), in human grades — a uniform sample with Holm over the 15 pairs, the same
sample for the pair alone (queries × the pool's mean grades per query), and the ``ppi`` order
for the pair alone (expected queries, and expected grades Σ π_i × query i's pool size) — beside
the judgments after which ``ndcg-studio simulate``'s depth/mtf/bandit/ab orders (and the
bandit's variants: λ = 1, no free reward, last judgment only) get the pair right for good
(estimate) and decide it soundly (the interval over every grade the rest could get).

Run: python benchmarks/bench_ppi.py [--samples 2000] [--no-pooling]
     [--only synthetic|llmjudge|dl19] [--dl19-passages FILE] [--cache FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.special import ndtr
from scipy.stats import binomtest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.bench_pooling import DL19, dl19_db  # noqa: E402
from ndcg_studio.domain.estimation.active import active_mean, inclusion_probabilities  # noqa: E402
from ndcg_studio.domain.estimation.decision import decide_pairs  # noqa: E402
from ndcg_studio.domain.estimation.ppi import (  # noqa: E402
    MIN_HUMAN_QUERIES,
    classical_mean,
    ppi_mean,
    z_interval,
)
from ndcg_studio.domain.pooling.strategies import (  # noqa: E402
    BanditParams,
    Pool,
    Strategy,
    build_pool,
)
from ndcg_studio.domain.statistics.multirun import pair_indices  # noqa: E402
from ndcg_studio.domain.verdict.estimates import ndcg_matrix  # noqa: E402
from ndcg_studio.services.campaigns.setup import PPI_UNIFORM_SHARE  # noqa: E402
from ndcg_studio.services.importing.service import ImportService  # noqa: E402
from ndcg_studio.services.scoring.load import ScoringRead  # noqa: E402
from ndcg_studio.services.scoring.service import ScoringService  # noqa: E402
from ndcg_studio.services.scoring.settings import ScoringSettings  # noqa: E402
from ndcg_studio.services.simulation import (  # noqa: E402
    SimulationProblem,
    load_problem,
    simulate,
)
from ndcg_studio.storage.database import Database  # noqa: E402
from ndcg_studio.storage.judges.items import item_texts  # noqa: E402

DATA = Path("/work/shared/data/llmjudge_dl23")
RUN_LABELS = {
    "by-llama70b": "RMITIR-llama70B",
    "by-h2oloo": "h2oloo-zeroshot1",
    "by-prophet": "prophet-setting1",
}
JUDGES = ["willia-umbrela1", "Olz-gpt4o", "RMITIR-GPT4o", "TREMA-nuggets"]
SIZES = (3, 5, 10, 12, 15)
K, DEPTH, LEVEL = 10, 10, 0.95


def _qrels(path: Path) -> dict[tuple[str, str], float]:
    out = {}
    for line in path.read_text().splitlines():
        q, _, d, g = line.split()
        out[(q, d)] = float(g)
    return out


def llmjudge() -> tuple[list[str], Pool, np.ndarray, dict[str, np.ndarray]]:
    """Run names, the depth-10 pool, the human grades and each label set's grades on it."""
    human = _qrels(DATA / "human_qrels.test.txt")
    items = sorted(human)
    queries = sorted({q for q, _ in items})
    docs = sorted({d for _, d in items})
    qi = {q: i for i, q in enumerate(queries)}
    di = {d: i for i, d in enumerate(docs)}
    q = np.array([qi[a] for a, _ in items])
    d = np.array([di[b] for _, b in items])
    g = np.array([human[it] for it in items])
    scores = {}
    for s, sigma in enumerate((0.5, 1.0, 1.5), start=1):
        scores[f"noisy-{sigma:g}"] = g + np.random.default_rng(s).normal(0, sigma, len(g))
    for s, (name, label) in enumerate(RUN_LABELS.items(), start=4):
        lab = _qrels(DATA / "llm_labels" / f"{label}.txt")
        jitter = np.random.default_rng(s).random(len(g)) * 0.1
        scores[name] = np.array([lab[it] for it in items]) + jitter
    names = list(scores)
    run, query, doc, rank = [], [], [], []
    for r, name in enumerate(names):
        order = np.lexsort((-d, -scores[name], q))  # by query, score desc, id desc
        rk = np.empty(len(g), dtype=np.int64)
        starts = np.r_[0, np.flatnonzero(np.diff(q[order])) + 1]
        pos = np.arange(len(g)) - np.repeat(starts, np.diff(np.r_[starts, len(g)]))
        rk[order] = pos + 1
        run.append(np.full(len(g), r)), query.append(q), doc.append(d), rank.append(rk)
    pool = build_pool(
        *(np.concatenate(a) for a in (run, query, doc, rank)),
        n_runs=len(names),
        n_queries=len(queries),
        depth=DEPTH,
    )
    key = q * len(docs) + d
    at = np.searchsorted(key, pool.query * len(docs) + pool.doc)
    labels = {}
    for path in sorted((DATA / "llm_labels").glob("*.txt")):
        lab = _qrels(path)
        labels[path.stem] = np.array([lab[it] for it in items])[at]
    return names, pool, g[at], labels


#: The MS MARCO passages of DL 2019's judged pairs and pool (``pid<TAB>text`` a line, the
#: collection's own format; the whole collection will do, only the needed lines are read).
DL19_PASSAGES = DL19 / "passages.tsv"
#: Where the local judge's DL 2019 grades are kept between runs (outside the repository).
DL19_CACHE = Path(tempfile.gettempdir()) / "ndcg-studio-bench-ppi" / "dl19-local-judge.tsv"


def _read_cache(path: Path) -> tuple[dict[tuple[str, str], float], str]:
    """The cached grades by (query, passage) and the cache's first line (the judge's fit)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    grades = {}
    for line in lines[1:]:
        q, d, g, _score = line.split("\t")
        grades[(q, d)] = float(g)
    return grades, lines[0]


def _grade_dl19(db: Database, items: list[tuple[int, int]], passages: Path, cache: Path) -> None:
    """Import the DL 2019 queries and the passages judged or pooled, fit the local judge on
    the NIST grades (``services.judges.local``) and write its grades of ``items`` to ``cache``
    (the fit on its first line)."""
    from ndcg_studio.services.judges.local import local_judge

    with db.engine.connect() as conn:
        wanted = {t.doc for t in item_texts(conn, items)}
    for line in (DL19 / "qrels.dl19-passage.txt").read_text().splitlines():
        wanted.add(line.split()[2])
    imp = ImportService(db)
    imp.import_file("queries", DL19 / "topics.dl19-passage.txt")
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "passages.jsonl"
        with passages.open(encoding="utf-8") as src, docs.open("w", encoding="utf-8") as out:
            for line in src:
                pid, _, text = line.rstrip("\n").partition("\t")
                if pid in wanted:
                    out.write(json.dumps({"doc_id": pid, "text": text}) + "\n")
        imp.import_file("documents", docs)
    judge = local_judge(db)
    with db.engine.connect() as conn:
        texts = item_texts(conn, items)
    rows = judge.grade(texts)
    check = judge.check
    cache.parent.mkdir(parents=True, exist_ok=True)
    head = (
        f"# {judge.model}; thresholds {[round(t, 4) for t in judge.params()['thresholds']]}; "
        f"fitted on {check.n_fit} NIST-graded pairs, checked on {check.n_check} of other "
        f"queries: kappa (linear) {check.kappa_linear:.3f}"
    )
    body = [
        f"{t.query}\t{t.doc}\t{r.grade}\t{r.raw_answer}" for t, r in zip(texts, rows, strict=True)
    ]
    cache.write_text("\n".join([head, *body]) + "\n", encoding="utf-8")


def dl19(passages: Path, cache: Path) -> tuple[list[str], Pool, np.ndarray, np.ndarray, str]:
    """Run names, the depth-10 pool of bench_pooling's DL 2019 runs, the NIST grades and the
    local judge's grades on it (from ``cache``, else graded once from ``passages`` and cached),
    and the judge's fit.

    Raises:
        FileNotFoundError: neither the cache nor the passages are there.
    """
    with tempfile.TemporaryDirectory() as tmp:
        db, names = dl19_db(Path(tmp))
        problem = load_problem(db, names, depth=DEPTH, k=K)
        settings = ScoringSettings(k=K, ideal="list", runs=tuple(names))
        data = ScoringService(db).load(ScoringRead(settings))
        pool = problem.pool
        items = list(
            zip(data.query_ids[pool.query].tolist(), data.doc_ids[pool.doc].tolist(), strict=True)
        )
        if not cache.is_file():
            if not passages.is_file():
                raise FileNotFoundError(
                    f"TREC DL 2019 part skipped: no cached grades at {cache} and no passages at "
                    f"{passages} (MS MARCO passages, pid<TAB>text a line) for the local judge"
                )
            _grade_dl19(db, items, passages, cache)
        with db.engine.connect() as conn:
            keys = [(t.query, t.doc) for t in item_texts(conn, items)]
        db.dispose()
    grades, fit = _read_cache(cache)
    missing = [k for k in keys if k not in grades]
    if missing:
        raise FileNotFoundError(f"{cache} lacks {len(missing)} pooled pairs: delete it to regrade")
    machine = np.array([grades[k] for k in keys])
    if not problem.evaluated.all():
        raise ValueError("a DL 2019 query has no judged passage in the pool")
    return names, pool, problem.truth, machine, fit


def _coverage(low: np.ndarray, high: np.ndarray, truth: np.ndarray) -> str:
    hit = (low <= truth) & (truth <= high)
    k, n = int(hit.sum()), hit.size
    ci = binomtest(k, n).proportion_ci(0.95, method="exact")
    return f"{k / n:.3f} [{ci.low:.3f}, {ci.high:.3f}]"


def study(h: np.ndarray, m: np.ndarray, samples: int, seed: int) -> list[list[str]]:
    """Coverage and widths per n for the rows of ``h``/``m`` ((series, N) all-human and machine
    values)."""
    rng = np.random.default_rng(seed)
    n_all = h.shape[1]
    truth = h.mean(axis=1)[:, None]
    out = []
    for n in SIZES:
        idx = np.argsort(rng.random((samples, n_all)), axis=1)[:, :n]
        y, f = h[:, idx], m[:, idx]  # (series, samples, n)
        est, se, _ = ppi_mean(y, f, m[:, None, :])
        mean, h_se = classical_mean(y)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.nanmedian(np.where(h_se > 0, se / h_se, np.nan))
            gain = np.nanmedian(np.where(se > 0, (h_se / se) ** 2, np.nan))
        out.append(
            [
                str(n),
                _coverage(*z_interval(est, se, LEVEL), truth),
                _coverage(*z_interval(mean, h_se, LEVEL), truth),
                f"{ratio:.2f}",
                f"{gain:.2f}",
            ]
        )
    return out


def _pairs(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return x[a] - x[b]


def _table(title: str, header: list[str], rows: list[list[str]]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def _needed(right: np.ndarray, n: int, needed: list[int]) -> None:
    """Set ``needed[i]`` to ``n`` where it is still 0 and ``right[i]`` >= 0.5."""
    for i, share in enumerate(right.tolist()):
        if needed[i] == 0 and share >= 0.5:
            needed[i] = n


def decisions(
    h: np.ndarray, m: np.ndarray, samples: int, seed: int
) -> tuple[list[int], list[int], float]:
    """Per pair the fewest human-judged queries (a uniform sample) from which >= half the
    samples decide it correctly, with Holm over the pairs and for the pair alone (0 if never),
    and the share of wrong decisions (Holm) over every n >= MIN_HUMAN_QUERIES and sample."""
    rng = np.random.default_rng(seed)
    a, b = pair_indices(h.shape[0])
    hd, md = h[a] - h[b], m[a] - m[b]
    sign = np.sign(hd.mean(axis=1))
    n_all = h.shape[1]
    needed, alone = [0] * len(a), [0] * len(a)
    wrong = trials = 0
    for n in range(MIN_HUMAN_QUERIES, n_all + 1):
        idx = np.argsort(rng.random((samples, n_all)), axis=1)[:, :n]
        est, se, _ = ppi_mean(hd[:, idx], md[:, idx], md[:, None, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(se > 0, np.abs(est) / se, np.inf)
        p = 2 * ndtr(-z)
        verdict = np.stack(
            [decide_pairs(est[:, s], p[:, s], LEVEL, h.shape[0])[1] for s in range(samples)], axis=1
        )
        wrong += int(((verdict != 0) & (verdict != sign[:, None])).sum())
        trials += verdict.size
        _needed((verdict == sign[:, None]).mean(axis=1), n, needed)
        single = (p < 1 - LEVEL) & (np.sign(est) == sign[:, None])
        _needed(single.mean(axis=1), n, alone)
    return needed, alone, wrong / max(trials, 1)


def ppi_order(
    h: np.ndarray, m: np.ndarray, grades: np.ndarray, samples: int, seed: int
) -> tuple[list[tuple[int, float]], float]:
    """The campaign order ``ppi`` for each pair alone (``services.campaigns.setup``): the
    queries drawn independently with π = inclusion_probabilities(|machine Δ| per query,
    n_expected, PPI_UNIFORM_SHARE), the active estimate of the pair's difference
    (``active_mean``), no interval with fewer than MIN_HUMAN_QUERIES drawn (as
    ``estimate_active_mean``). Per pair: the fewest expected queries from which >= half the
    samples decide it correctly, with the expected human grades (Σ π_i · the query's pool
    size ``grades``) there ((0, 0.0) if never); and the share of wrong decisions over every
    n_expected and sample."""
    rng = np.random.default_rng(seed)
    a, b = pair_indices(h.shape[0])
    n_all = h.shape[1]
    out: list[tuple[int, float]] = []
    wrong = trials = 0
    for i, j in zip(a, b, strict=True):
        hd, md = h[i] - h[j], m[i] - m[j]
        sign = np.sign(hd.mean())
        found = (0, 0.0)
        for n in range(MIN_HUMAN_QUERIES, n_all + 1):
            pi = inclusion_probabilities(np.abs(md), n, PPI_UNIFORM_SHARE)
            drawn = rng.random((samples, n_all)) < pi
            est, se, _ = active_mean(hd, md, drawn, pi)
            with np.errstate(divide="ignore", invalid="ignore"):
                z = np.where(se > 0, np.abs(est) / se, np.inf)
            decided = (drawn.sum(axis=1) >= MIN_HUMAN_QUERIES) & (2 * ndtr(-z) < 1 - LEVEL)
            wrong += int((decided & (np.sign(est) != sign)).sum())
            trials += samples
            if found[0] == 0 and (decided & (np.sign(est) == sign)).mean() >= 0.5:
                found = (n, float(pi @ grades))
        out.append(found)
    return out, wrong / max(trials, 1)


def ppi_order_coverage(h: np.ndarray, m: np.ndarray, samples: int, seed: int) -> list[list[str]]:
    """Coverage of the pair differences by the ``ppi`` order's active interval (see
    :func:`ppi_order`) per expected n, over the samples with an interval (>= MIN_HUMAN_QUERIES
    drawn), the share of samples with one, and the median se against a uniform sample of n."""
    rng = np.random.default_rng(seed)
    a, b = pair_indices(h.shape[0])
    hd, md = h[a] - h[b], m[a] - m[b]
    n_all = h.shape[1]
    rows = []
    for n in (MIN_HUMAN_QUERIES, 15, 20):
        pi = np.stack([inclusion_probabilities(np.abs(x), n, PPI_UNIFORM_SHARE) for x in md])
        drawn = rng.random((samples, *pi.shape)) < pi
        est, se, _ = active_mean(hd, md, drawn, pi)
        given = drawn.sum(axis=-1) >= MIN_HUMAN_QUERIES
        low, high = z_interval(est, se, LEVEL)
        truth = np.broadcast_to(hd.mean(axis=1), est.shape)
        idx = np.argsort(rng.random((samples, n_all)), axis=1)[:, :n]
        _, se_u, _ = ppi_mean(hd[:, idx], md[:, idx], md[:, None, :])
        rows.append(
            [
                str(n),
                _coverage(low[given], high[given], truth[given]),
                f"{given.mean():.3f}",
                f"{np.median(se) / np.median(se_u):.2f}",
            ]
        )
    return rows


#: simulate's orders compared: the four strategies, and the bandit's variants (discounted
#: MaxMean with λ 0.9 and free rewards is ``bandit``)
ORDERS: list[tuple[str, Strategy, BanditParams | None]] = [
    ("depth", "depth", None),
    ("mtf", "mtf", None),
    ("bandit", "bandit", None),
    ("bandit λ=1", "bandit", BanditParams(discount=1.0)),
    ("bandit no free reward", "bandit", BanditParams(free_reward=False)),
    ("bandit last only", "bandit", BanditParams(last_only=True)),
    ("ab", "ab", None),
]


def _stays(flags: np.ndarray, budgets: np.ndarray) -> list[str]:
    """Per pair (column) the budget from which ``flags`` stays True ("never": not at the end)."""
    out = []
    for j in range(flags.shape[1]):
        false = np.flatnonzero(~flags[:, j])
        if not len(false):
            out.append(str(int(budgets[0])))
        elif false[-1] + 1 < len(budgets):
            out.append(str(int(budgets[false[-1] + 1])))
        else:
            out.append("never")
    return out


def pooling(
    names: list[str], pool: Pool, human: np.ndarray
) -> dict[str, tuple[list[str], list[str]]]:
    """Per strategy and pair: the judgments from which the verdict stays right (estimate) and
    from which the sound interval decides it."""
    problem = SimulationProblem(
        pool=pool,
        truth=human,
        run_names=names,
        query_external=[str(i) for i in range(pool.n_queries)],
        evaluated=np.ones(pool.n_queries, bool),
        k=K,
    )
    out = {}
    for label, strategy, bandit in ORDERS:
        res = simulate(problem, strategy, step=10, seed=0, bandit=bandit)
        budgets = np.array([r[1] for r in res.rows])

        out[label] = (_stays(res.pair_correct, budgets), _stays(res.pair_decided, budgets))
    return out


HEADER = ["n", "PPI++ coverage [95 % CI]", "human-only coverage", "width PPI/human", "ESS gain"]
PPI_ORDER_HEADER = [
    "expected n",
    "coverage (with an interval)",
    "share with an interval",
    "median se active / uniform",
]


def synthetic_part(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(0)
    y = rng.beta(2, 3, 50)
    synthetic = {
        "good": np.clip(y + rng.normal(0.1, 0.05, 50), 0, 1),
        "fair": np.clip(y + rng.normal(0, 0.2, 50), 0, 1),
        "poor": rng.beta(2, 3, 50),
    }
    for name, f in synthetic.items():
        _table(
            f"synthetic {name} (50 queries, one mean)",
            HEADER,
            study(y[None], f[None], args.samples, 1),
        )


def llmjudge_part(args: argparse.Namespace) -> None:
    if not DATA.is_dir():
        print(f"\n{DATA} absent: LLMJudge part skipped")
        return
    names, pool, human, labels = llmjudge()
    h = ndcg_matrix(pool, human, K)
    a, b = pair_indices(len(names))
    print(f"\nruns: {names}; all-human means {np.round(h.mean(axis=1), 3).tolist()}")
    print(f"pool: {pool.size} grades over {pool.n_queries} queries")
    summary = []
    for judge in labels:
        m = ndcg_matrix(pool, labels[judge], K)
        runs_rows = study(h, m, args.samples, 2)
        pair_rows = study(h[a] - h[b], m[a] - m[b], args.samples, 3)
        if judge in JUDGES:
            _table(f"LLMJudge, judge {judge}: the 6 run means", HEADER, runs_rows)
            _table(f"LLMJudge, judge {judge}: the 15 pair differences", HEADER, pair_rows)
        summary.append([judge, runs_rows[3][1], runs_rows[3][3], pair_rows[3][1], pair_rows[3][3]])
    _table(
        "LLMJudge, every label set as the judge, n = 12",
        ["judge", "runs: coverage", "runs: width ratio", "pairs: coverage", "pairs: width ratio"],
        summary,
    )
    # active: inclusion probabilities from the judges' disagreement on each query's pair
    # difference (the std over five other label sets), for the best judge
    m = ndcg_matrix(pool, labels["willia-umbrela1"], K)
    others = ["Olz-gpt4o", "RMITIR-GPT4o", "h2oloo-fewself", "NISTRetrieval-instruct0", "Olz-exp"]
    spread = np.std([_pairs(ndcg_matrix(pool, labels[o], K), a, b) for o in others], axis=0)
    rows = []
    r2 = np.random.default_rng(5)
    for n in (MIN_HUMAN_QUERIES, 15):
        pi = np.stack([inclusion_probabilities(s + 1e-3, n) for s in spread])
        lab = r2.random((args.samples, *pi.shape)) < pi
        est, se, _ = active_mean(h[a] - h[b], m[a] - m[b], lab, pi)
        truth = (h[a] - h[b]).mean(axis=1)
        idx = np.argsort(r2.random((args.samples, h.shape[1])), axis=1)[:, :n]
        _, se_u, _ = ppi_mean(
            (h[a] - h[b])[:, idx], (m[a] - m[b])[:, idx], (m[a] - m[b])[:, None, :]
        )
        rows.append(
            [
                str(n),
                _coverage(*z_interval(est, se, LEVEL), truth),
                f"{np.median(se) / np.median(se_u):.2f}",
            ]
        )
    _table(
        "LLMJudge, active sampling (willia-umbrela1), pair differences",
        ["expected n", "coverage", "median se active / uniform"],
        rows,
    )
    _table(
        "LLMJudge, the ppi order (willia-umbrela1, π by its |Δ|), pair differences",
        PPI_ORDER_HEADER,
        ppi_order_coverage(h, m, args.samples, 6),
    )
    decision_table("LLMJudge", names, pool, human, h, m, "willia-umbrela1", args)


def dl19_part(args: argparse.Namespace) -> None:
    if not DL19.is_dir():
        print(f"\n{DL19} absent: TREC DL 2019 part skipped")
        return
    started = time.perf_counter()
    try:
        names, pool, human, machine, fit = dl19(args.dl19_passages, args.cache)
    except FileNotFoundError as exc:
        print(f"\n{exc}")
        return
    h, m = ndcg_matrix(pool, human, K), ndcg_matrix(pool, machine, K)
    a, b = pair_indices(len(names))
    print(f"\nTREC DL 2019 ({time.perf_counter() - started:.1f} s to read or grade): {fit}")
    print(f"runs: {names}; all-human means {np.round(h.mean(axis=1), 3).tolist()}")
    print(f"local judge means {np.round(m.mean(axis=1), 3).tolist()}")
    print(f"pool: {pool.size} grades over {pool.n_queries} queries")
    _table("TREC DL 2019, local judge: the 6 run means", HEADER, study(h, m, args.samples, 2))
    _table(
        "TREC DL 2019, local judge: the 15 pair differences",
        HEADER,
        study(h[a] - h[b], m[a] - m[b], args.samples, 3),
    )
    _table(
        "TREC DL 2019, the ppi order (local judge, π by its |Δ|), pair differences",
        PPI_ORDER_HEADER,
        ppi_order_coverage(h, m, args.samples, 6),
    )
    decision_table("TREC DL 2019", names, pool, human, h, m, "local judge", args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--no-pooling", action="store_true")
    parser.add_argument("--only", choices=("synthetic", "llmjudge", "dl19"))
    parser.add_argument("--dl19-passages", type=Path, default=DL19_PASSAGES)
    parser.add_argument("--cache", type=Path, default=DL19_CACHE, help="local judge's grades")
    args = parser.parse_args()
    started = time.perf_counter()
    parts = {"synthetic": synthetic_part, "llmjudge": llmjudge_part, "dl19": dl19_part}
    for name, part in parts.items():
        if args.only in (None, name):
            part(args)
    _finish(started)


def decision_table(
    title: str,
    names: list[str],
    pool: Pool,
    human: np.ndarray,
    h: np.ndarray,
    m: np.ndarray,
    judge: str,
    args: argparse.Namespace,
) -> None:
    """Print the human grades until each pair is decided: PPI on a uniform sample (Holm over
    the pairs, and each pair alone), the ``ppi`` order, and simulate's orders."""
    samples = min(args.samples, 1000)
    needed, alone, wrong = decisions(h, m, samples, 4)
    grades = np.bincount(pool.query, minlength=pool.n_queries).astype(np.float64)
    active, wrong_active = ppi_order(h, m, grades, samples, 7)
    per_query = pool.size / pool.n_queries
    a, b = pair_indices(len(names))
    never = f"not by {h.shape[1]}"

    def uniform(n: int) -> str:
        return f"{n} / {n * per_query:.0f}" if n else never

    header = [
        "pair",
        "Δ all-human (abs.)",
        f"uniform, Holm ({judge}) queries / grades",
        "uniform, pair alone",
        "ppi order, pair alone: expected queries / grades",
    ]
    rows = [
        [
            f"{names[i]} - {names[j]}",
            f"{abs(h[i].mean() - h[j].mean()):.3f}",
            uniform(n),
            uniform(n1),
            f"{act[0]} / {act[1]:.0f}" if act[0] else never,
        ]
        for i, j, n, n1, act in zip(a, b, needed, alone, active, strict=True)
    ]
    if not args.no_pooling:
        sims = pooling(names, pool, human)
        for s, (right, sound) in sims.items():
            header.append(f"{s}: right / sound")
            for row, r_, s_ in zip(rows, right, sound, strict=True):
                row.append(f"{r_} / {s_}")
    _table(
        f"{title}: human grades until each pair is decided (pool {pool.size}; wrong decisions "
        f"uniform {wrong:.4f}, ppi order {wrong_active:.4f} of (pair, sample, n))",
        header,
        rows,
    )


def _finish(started: float) -> None:
    load = os.getloadavg()[0]
    print(f"\n{time.perf_counter() - started:.1f} s, load {load:.1f}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
