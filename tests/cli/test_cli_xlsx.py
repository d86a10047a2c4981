"""``--format xlsx``: every export kind, ``score`` and ``agreement`` write a real workbook —
read back with openpyxl (cell types, frozen header, autofilter, the settings sheet) and with
``pandas.read_excel`` — holding the same cells as the CSV of the same command."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from ndcg_studio.io.spreadsheet import unguard
from ndcg_studio.io.trec.readers import read_trec_qrels
from ndcg_studio.io.workbook import write_xlsx
from tests.cli.test_cli_files import HOSTILE_IDS, hostile, run  # noqa: F401  (fixture)

# every command that writes a table, with the columns that must hold numbers
XLSX_OUTPUTS = {
    "export report": (["export", "report", "--k", "5"], ["k", "ndcg"]),
    "export judgments": (["export", "judgments"], ["grade"]),
    "export judgments --wide": (["export", "judgments", "--wide"], []),
    "export qrels": (["export", "qrels", "--consensus", "max"], ["grade"]),
    "export agreement": (["export", "agreement", "--by", "pair"], []),
    "export compare": (["export", "compare"], ["delta"]),
    "score": (["score"], ["k", "ndcg"]),
    "score --summary": (["score", "--summary"], ["k", "mean_ndcg", "n_queries"]),
    "agreement": (["agreement", "--by", "annotator"], []),
}


def _csv_argv(argv: list[str]) -> list[str]:
    """The same command writing CSV (qrels: TREC)."""
    if argv[0] == "export":
        return argv
    return [*argv, "--format", "csv"]


@pytest.mark.parametrize("what", list(XLSX_OUTPUTS))
def test_every_table_writes_a_workbook_with_the_csv_cells(
    hostile: str,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    what: str,
) -> None:
    argv, numeric = XLSX_OUTPUTS[what]
    book_path = tmp_path / "out.xlsx"
    code, _, err = run(capsys, "--db", hostile, *argv, "--format", "xlsx", "-o", str(book_path))
    assert code == 0, err
    book = openpyxl.load_workbook(book_path)
    assert book.sheetnames == ["data", "settings"]
    sheet = book["data"]
    assert sheet.freeze_panes == "A2"
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    header, body = rows[0], rows[1:]
    assert body and sheet.auto_filter.ref == f"A1:{sheet.cell(1, len(header)).column_letter}" + str(
        len(rows)
    )
    for name in numeric:
        values = [r[header.index(name)] for r in body if r[header.index(name)] is not None]
        assert values and all(type(v) in (int, float) for v in values), (name, values[:5])
    # ids are texts, exactly the ids (no spreadsheet guard needed: a cell typed text never runs)
    if "query_id" in header:
        ids = {r[header.index("query_id")] for r in body}
        assert all(type(v) is str for v in ids)
        assert ids <= set(HOSTILE_IDS) and "=1+2" in ids
        assert sheet.cell(2, 1).data_type == "s"
    # the settings sheet holds what the sidecar holds
    about = json.loads((tmp_path / "out.xlsx.settings.json").read_text("utf-8"))
    settings = {k: v for k, v in book["settings"].iter_rows(min_row=2, values_only=True)}
    assert settings["what"] == about["what"] and settings["settings"] == (about["settings"] or None)
    assert settings["file"] == "out.xlsx" == about["file"]
    # the same cells as the CSV (TREC for qrels) of the same command
    csv_path = tmp_path / ("out.txt" if what == "export qrels" else "out.csv")
    code, _, err = run(capsys, "--db", hostile, *_csv_argv(argv), "-o", str(csv_path))
    assert code == 0, err
    if what == "export qrels":
        qrels = read_trec_qrels(csv_path)
        expected = sorted(zip(qrels.query_id, qrels.doc_id, qrels.grade.tolist(), strict=True))
        assert sorted((q, d, g) for q, d, g in body) == expected
        return
    frame = pd.read_csv(csv_path, keep_default_na=False, dtype=str)
    assert [unguard(c) for c in frame.columns] == header
    expected_cells = [[_same(unguard(v)) for v in row] for row in frame.itertuples(index=False)]
    got = [[_same("" if v is None else _text(v)) for v in row] for row in body]
    if what == "export judgments":  # updated_at is the only column to differ between runs
        expected_cells = [r[:-1] for r in expected_cells]
        got = [r[:-1] for r in got]
    assert got == expected_cells
    # pandas reads it as a spreadsheet user would: numbers as numbers, ids as texts
    excel = pd.read_excel(book_path, sheet_name=None)
    assert list(excel) == ["data", "settings"] and len(excel["data"]) == len(body)
    for name in numeric:
        assert pd.api.types.is_numeric_dtype(excel["data"][name])


def _same(text: str) -> object:
    """A cell compared by value: a number's text as its float (Excel keeps ``1.0`` as ``1``),
    to 13 significant digits (openpyxl writes 16, ``%.16g``; Excel itself keeps 15)."""
    try:
        return float(f"{float(text):.13g}")
    except ValueError:
        return text


def _text(value: object) -> str:
    """A cell's value as the CSV writes it (floats in their shortest round-trip form)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def test_xlsx_keeps_ids_as_text_numbers_as_numbers(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    rows = [
        ("007", "1E+05", 3, 0.1, float("nan"), None, '=HYPERLINK("x")', True, float("inf")),
        ("00123", "1e5", -2, 1e-5, 2.5, "ё Ё 中文", "bell\x07", False, float("-inf")),
    ]
    n = write_xlsx(path, [f"c{i}" for i in range(9)], rows, settings={"notes": ["a", "b"]})
    assert n == 2
    book = openpyxl.load_workbook(path)
    got = [list(r) for r in book["data"].iter_rows(min_row=2, values_only=True)]
    assert got == [
        ["007", "1E+05", 3, 0.1, None, None, '=HYPERLINK("x")', True, "inf"],
        ["00123", "1e5", -2, 1e-5, 2.5, "ё Ё 中文", "bell\ufffd", False, "-inf"],
    ]
    assert book["data"]["G2"].data_type == "s"  # a text, not a formula
    assert dict(book["settings"].iter_rows(min_row=2, values_only=True)) == {
        "file": "t.xlsx",
        "notes": "a\nb",
    }
    frame = pd.read_excel(path, dtype={"c0": str, "c1": str})
    assert frame["c0"].tolist() == ["007", "00123"] and frame["c2"].tolist() == [3, -2]


def test_xlsx_refuses_stdout_and_leaves_nothing(
    hostile: str,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--db", hostile, "score", "--format", "xlsx")
    assert code == 2 and out == "" and "--output" in err
    code, _, err = run(capsys, "--db", hostile, "export", "report", "--format", "xlsx")
    assert code == 2 and "--output" in err
    assert list(tmp_path.glob("*.xlsx")) == []


def test_a_cancelled_or_failed_workbook_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    path.write_bytes(b"old")

    def rows():  # type: ignore[no-untyped-def]
        yield ("a", 1)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_xlsx(path, ["x", "y"], rows())
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["t.xlsx"]
