"""An installed wheel works, not only the checkout: migrations and resources ship inside it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_installs_and_runs_from_a_fresh_venv(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(dist),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("ndcg_studio-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ndcg_studio/_migrations/env.py" in names
    assert any(n.startswith("ndcg_studio/_migrations/versions/0001") for n in names)
    assert any(n.startswith("ndcg_studio/_resources/") for n in names)
    for lang in ("zh_CN", "ru"):  # the compiled translations the GUI loads (ui/language.py)
        assert f"ndcg_studio/_resources/i18n/ndcg_studio_{lang}.qm" in names

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bindir = env_dir / "bin"
    py = bindir / "python"
    # The package itself comes from the wheel; its dependencies are borrowed from this test
    # environment through a .pth file (appended to sys.path, after the fresh site-packages), so the
    # test needs no network and stays fast.
    subprocess.run(
        [str(py), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "_borrowed_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    run_env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "NDCG_STUDIO_DB"}}
    out = subprocess.run(
        [str(bindir / "ndcg-studio"), "--version"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=run_env,
    ).stdout
    assert out.strip().startswith("ndcg-studio ")

    db = tmp_path / "from-wheel.sqlite"
    code = (
        "import ndcg_studio, sys\n"
        "from ndcg_studio.storage.database import open_database, current_revision, head_revision\n"
        "from ndcg_studio._paths import migrations_dir, resources_dir\n"
        "assert '_migrations' in str(migrations_dir()), migrations_dir()\n"
        "assert '_resources' in str(resources_dir()), resources_dir()\n"
        f"d = open_database({str(db)!r})\n"
        "with d.engine.connect() as c: assert current_revision(c) == head_revision()\n"
        "print(ndcg_studio.__file__)\n"
    )
    where = subprocess.run(
        [str(py), "-c", code], check=True, capture_output=True, text=True, cwd=tmp_path, env=run_env
    ).stdout.strip()
    assert where.startswith(str(env_dir)), where
    assert db.exists()
