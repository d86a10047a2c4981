"""Trust measured on real data: the 33 LLM label sets of the LLMJudge challenge (TREC DL 2023,
4,423 pairs; Rahmani et al., arXiv:2502.13908) imported as model sources beside NIST's human
labels give the paper's Cohen's kappa (e.g. h2oloo-zeroshot1 0.282, Olz-gpt4o 0.262,
TREMA-nuggets 0.060), and equal scikit-learn's on every set.

Two sets hold grades off the 0-3 scale (RMITIR-llama70B: 5 on two pairs; h2oloo-zeroshot2: 10 on
one), which the product refuses above 4: they are imported with ``--grade-map`` sending that grade
to 4, a grade neither set uses, so the unweighted kappa (blind to the categories' values) is the
one of the file as published; the scikit-learn oracle reads the files as they are.

The labels are read from ``../shared/data/llmjudge_dl23`` (no licence for the human labels: never
copied here); the test skips when that folder is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.judges.trust import machine_trust
from ndcg_studio.storage.database import open_database
from tests.conftest import SHARED_DATA

DATA = SHARED_DATA / "llmjudge_dl23"

#: Cohen's kappa (unweighted) against the human labels, as the paper computes it.
PUBLISHED = {"h2oloo-zeroshot1": 0.282, "Olz-gpt4o": 0.262, "TREMA-nuggets": 0.060}


def _read(path: Path) -> dict[tuple[str, str], int]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        f = line.split()
        if len(f) >= 4:
            out[(f[0], f[2])] = int(f[3])
    return out


@pytest.mark.slow
@pytest.mark.skipif(not DATA.is_dir(), reason=f"{DATA} is absent (shared data not beside the repo)")
def test_llmjudge_kappa_equals_the_papers(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'dl23.sqlite'}")
    try:
        service = ImportService(db)
        service.import_file("qrels", DATA / "human_qrels.test.txt", annotator="nist")
        labels = sorted((DATA / "llm_labels").glob("*.txt"))
        assert len(labels) == 33
        for path in labels:
            grades = set(_read(path).values())
            assert 4 not in grades
            off = {g: 4 for g in grades - {0, 1, 2, 3}}
            service.import_file(
                "qrels",
                path,
                annotator=path.stem,
                source=path.stem,
                source_kind="model",
                grade_map={0: 0, 1: 1, 2: 2, 3: 3, **off} if off else None,
            )
        trust = {x.source_b: x for x in machine_trust(db)}
    finally:
        db.dispose()
    assert set(trust) == {p.stem for p in labels}
    human = _read(DATA / "human_qrels.test.txt")
    keys = sorted(human)
    for path in labels:
        x = trust[path.stem]
        assert x.source_a == "humans" and x.n_shared == 4423
        machine = _read(path)
        expected = cohen_kappa_score([human[k] for k in keys], [machine[k] for k in keys])
        assert x.kappa == pytest.approx(expected, abs=1e-12), path.stem
        assert x.confusion.sum() == 4423
    for name, kappa in PUBLISHED.items():
        assert round(trust[name].kappa, 3) == kappa
    low, high = min(x.kappa for x in trust.values()), max(x.kappa for x in trust.values())
    assert round(low, 2) == 0.06 and round(high, 2) == 0.29
