"""trec_eval's measures as ``ndcg-studio eval`` names them: which are implemented, how ``-m``
words are parsed (trec_eval 10 ``measures.c``, ``get_*.c``), and the result with trec_eval's
printing (``meas_print_single.c``, ``meas_print_final.c``). :func:`ndcg_studio.services.
evaluation.evaluate` computes the values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.errors import InputError

__all__ = [
    "COUNT_MEASURES",
    "DEFAULT_CUTOFFS",
    "DEFAULT_MEASURES",
    "MEASURES",
    "MIN_GEO_MEAN",
    "NOT_IMPLEMENTED",
    "SUMMARY_ONLY",
    "Evaluation",
    "MeasureError",
    "MeasureSpec",
    "parse_measures",
]

#: trec_eval's default cutoffs of P, recall, ndcg_cut and map_cut.
DEFAULT_CUTOFFS: tuple[int, ...] = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: Implemented trec_eval measures, in trec_eval's order of output (``measures.c``); the value
#: says whether it takes cutoffs.
MEASURES: Mapping[str, bool] = {
    "runid": False,
    "num_q": False,
    "num_ret": False,
    "num_rel": False,
    "num_rel_ret": False,
    "map": False,
    "gm_map": False,
    "Rprec": False,
    "bpref": False,
    "recip_rank": False,
    "iprec_at_recall": False,
    "P": True,
    "recall": True,
    "infAP": False,
    "ndcg": False,
    "ndcg_rel": False,
    "ndcg_cut": True,
    "map_cut": True,
    "rbp": False,
    "success": True,
    "set_P": False,
    "set_relative_P": False,
    "set_recall": False,
    "set_map": False,
    "set_F": False,
    "num_nonrel_judged_ret": False,
}
#: the cutoffs of ``success`` when none are given (trec_eval ``m_success.c``)
SUCCESS_CUTOFFS: tuple[int, ...] = (1, 5, 10)
#: trec_eval 10's measures that ``-m all_trec`` would print and are not implemented here
NOT_IMPLEMENTED = (
    "relstring",
    "gm_bpref",
    "Rprec_mult",
    "utility",
    "11pt_avg",
    "binG",
    "G",
    "Rndcg",
    "relative_P",
    "unj",
    "rbp_resid",
)
#: the measures that are counts (printed as integers, summed in ``all``)
COUNT_MEASURES = ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret")

#: the measures printed in the summary only (trec_eval prints no per-query line for them)
SUMMARY_ONLY = ("gm_map",)
#: trec_eval's ``MIN_GEO_MEAN``: gm_map's floor of a query's AP before its logarithm
MIN_GEO_MEAN = 0.00001

#: trec_eval's default measures (its "official" set, all of them implemented here).
DEFAULT_MEASURES: tuple[str, ...] = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
)


class MeasureError(InputError):
    """A ``-m`` measure that is not implemented, or parameters it cannot take."""


@dataclass(frozen=True)
class MeasureSpec:
    """One requested measure family: ``name`` (trec_eval's) with its cutoffs or gains.

    Attributes:
        name: a key of :data:`MEASURES`.
        cutoffs: sorted distinct cutoffs >= 1 for measures that take them, else ().
        gains: ``ndcg`` with per-grade gains (``ndcg.0=0,1=1,2=3``), as given; None otherwise.
        label: the printed name stem (``ndcg_0=0,1=1,2=3`` for custom gains).
    """

    name: str
    cutoffs: tuple[int, ...] = ()
    gains: Mapping[int, float] | None = None
    label: str = ""

    def names(self) -> list[str]:
        """The printed measure names (``P_5``, ``P_10``, ``map``...)."""
        if self.cutoffs:
            return [f"{self.name}_{k}" for k in self.cutoffs]
        return [self.label or self.name]


_NUMBER = re.compile(r"^\d+(\.\d*)?$")


def parse_measures(words: Sequence[str]) -> list[MeasureSpec]:
    """Parse trec_eval ``-m`` words (``ndcg_cut.5,10``, ``P.5``, ``map``, ``ndcg.1=3,2=9``).

    As in trec_eval, a measure's first parameters win (``-m P.5 -m P.10`` gives P_5 only) and
    cutoffs are read as integers (``23.4`` is 23). Without words, :data:`DEFAULT_MEASURES`.

    Returns:
        The specs in trec_eval's order of output.

    Raises:
        MeasureError: an unknown or unimplemented measure, or bad parameters (one line,
            naming the measure and listing the implemented ones).
    """
    # trec_eval: the first parameters given to a measure win; a bare name only asks for it
    chosen: dict[str, MeasureSpec] = {}
    explicit: set[str] = set()
    if "all_trec" in words:  # every implemented measure, as trec_eval's all_trec would print
        words = [*list(MEASURES), *(w for w in words if w != "all_trec")]
    for word in words or DEFAULT_MEASURES:
        name, dot, params = word.partition(".")
        if name not in MEASURES:
            known = (
                " (a trec_eval 10 measure not implemented here)" if name in NOT_IMPLEMENTED else ""
            )
            raise MeasureError(
                f"measure {word!r} is not implemented{known}; implemented: {', '.join(MEASURES)}"
            )
        if dot and not MEASURES[name] and name != "ndcg":
            raise MeasureError(f"{word!r}: {name} takes no parameters here")
        if name in explicit or (name in chosen and not dot):
            continue
        if MEASURES[name]:
            cutoffs = SUCCESS_CUTOFFS if name == "success" else DEFAULT_CUTOFFS
            if dot:
                parts = params.split(",")
                if not params or not all(_NUMBER.match(p) for p in parts):
                    raise MeasureError(f"{word!r}: cutoffs must be numbers >= 1, e.g. {name}.5,10")
                cutoffs = tuple(sorted({int(float(p)) for p in parts}))
                if cutoffs[0] < 1:
                    raise MeasureError(f"{word!r}: cutoffs must be >= 1")
            chosen[name] = MeasureSpec(name, cutoffs)
        elif dot:  # ndcg with per-grade gains
            chosen[name] = MeasureSpec(name, gains=_gains(word, params), label=f"ndcg_{params}")
        else:
            chosen[name] = MeasureSpec(name)
        if dot:
            explicit.add(name)
    order = list(MEASURES)
    return sorted(chosen.values(), key=lambda s: order.index(s.name))


def _gains(word: str, params: str) -> dict[int, float]:
    gains: dict[int, float] = {}
    for part in params.split(","):
        grade, eq, gain = part.partition("=")
        try:
            gains[int(grade)] = float(gain)
        except ValueError:
            raise MeasureError(f"{word!r}: gains are GRADE=GAIN, e.g. ndcg.1=1,2=3") from None
        if not eq or not math.isfinite(gains[int(grade)]) or int(grade) < 0:
            raise MeasureError(f"{word!r}: gains are GRADE=GAIN with GRADE >= 0")
    return gains


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-query values of the requested measures, and their summary (trec_eval's ``all``).

    Attributes:
        query_ids: the evaluated queries, in byte order of their ids.
        names: printed measure names, in trec_eval's order.
        values: per name, float64 (n_queries,) values.
        integer: the names printed as integers (``num_*``).
        runid: the run's tag (trec_eval prints the last query's).
        summary: per name, the ``all`` value (mean, or sum for ``num_*``).
        show_runid, show_num_q: whether ``runid`` / ``num_q`` were asked for.
    """

    query_ids: list[str]
    names: list[str]
    values: dict[str, NDArray[np.float64]]
    integer: frozenset[str]
    runid: str
    summary: dict[str, float]
    show_runid: bool = False
    show_num_q: bool = False

    def lines(self, per_query: bool) -> Iterator[str]:
        """trec_eval's output lines (no newline), per query first when ``per_query``."""
        if per_query:
            by_name = {
                name: (
                    [f"{int(v)}" for v in self.values[name].tolist()]
                    if name in self.integer
                    else [f"{v:6.4f}" for v in self.values[name].tolist()]
                )
                for name in self.names
            }
            heads = {name: f"{name:<22}\t" for name in self.names}
            for i, qid in enumerate(self.query_ids):
                for name in self.names:
                    if name not in SUMMARY_ONLY:
                        yield f"{heads[name]}{qid}\t{by_name[name][i]}"
        if self.show_runid:
            yield f"{'runid':<22}\tall\t{self.runid}"
        if self.show_num_q:
            yield f"{'num_q':<22}\tall\t{len(self.query_ids)}"
        for name in self.names:
            value = self.summary[name]
            text = f"{int(value)}" if name in self.integer else f"{value:6.4f}"
            yield f"{name:<22}\tall\t{text}"
