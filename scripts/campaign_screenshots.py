"""Render the judging-campaign pictures of the README offscreen (1280×800): the New campaign
dialog (with the ``ab`` order; also at 1024×700), Annotate with the campaign panel and its
guidelines, and the lead's dashboard.

The database is the Cranfield demo (as ``scripts/screenshots.py`` builds it, with the sample
annotator "alice") in a temporary folder, plus the second annotator "ada" and a campaign over the
demo's runs with overlap 2, guidelines and gold items taken from Cleverdon's grades.

Run: python scripts/campaign_screenshots.py [--out docs/screenshots] [--lang zh_CN|ru]
(``--lang``: the interface in that language, every picture at 1024×700 and named
``<picture>-<lang>.png``.)
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
for folder in (REPO, REPO / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from screenshots import SIZE, add_second_annotator, build_demo, settle  # noqa: E402

from ndcg_studio.services.annotation.service import AnnotationService  # noqa: E402
from ndcg_studio.services.campaigns.service import CampaignService  # noqa: E402
from ndcg_studio.services.campaigns.types import CampaignSpec, GoldItem  # noqa: E402
from ndcg_studio.ui.context import AppContext  # noqa: E402
from ndcg_studio.ui.dialogs.campaign import CampaignDialog  # noqa: E402
from ndcg_studio.ui.views.campaign.dashboard import CampaignDashboard  # noqa: E402
from ndcg_studio.ui.window.main_window import MainWindow  # noqa: E402

GUIDELINES = """# Aerodynamics relevance study

Judge **topicality** for an engineer who asked the query:

- **4 perfect** — answers the question completely
- **3 highly relevant** — answers most of it, or the key part
- **2 relevant** — on the topic, partly useful
- **1 marginal** — mentions the topic in passing
- **0 irrelevant**

Press **X** when you cannot judge (say why), **L** to come back later, **n** to explain a grade.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--lang", choices=("en", "zh_CN", "ru"), default="en", help="language")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    from ndcg_studio.ui.language import apply_language

    apply_language(args.lang)
    size = SIZE if args.lang == "en" else (1024, 700)
    tail = "" if args.lang == "en" else f"-{args.lang}"
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = build_demo(folder)
        add_second_annotator(db, folder)
        service = CampaignService(db)
        runs = service.run_names()
        gold = [GoldItem("1", "184", 3), GoldItem("2", "12", 2), GoldItem("3", "5", 3)]
        spec = CampaignSpec(
            "aero-2026", runs, 10, 2, ["alice", "ada", "ben"], sample=40, seed=5,
            gold=gold, gold_rate=0.1, guidelines=GUIDELINES,
        )  # fmt: skip
        try:
            service.create(spec)
        except ValueError:  # gold ids not in this demo: without gold
            service.create(dataclasses.replace(spec, gold=()))
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        context = AppContext(settings)
        annotator = AnnotationService(db).ensure_annotator("alice")
        context.set_database(db, annotator)
        window = MainWindow(context)
        window.resize(*size)
        window.show()
        settle(app)
        view = window.view("Annotate")
        panel = window.campaign_panel
        assert panel is not None
        view.splitter.setSizes([300, 560, 190])  # type: ignore[attr-defined]
        panel.chooser.setCurrentText("aero-2026")
        for _ in range(6):
            panel.next_item()
            settle(app)
            view.grader.grade_current(2)  # type: ignore[attr-defined]
            settle(app)
        panel.later()
        settle(app)
        written = [args.out / f"campaign-annotate{tail}.png"]
        window.grab().save(str(written[-1]))
        dialog = CampaignDialog(context, window)
        dialog.resize(*size)
        dialog.name.setText("aero-2027")
        for i in range(min(2, dialog.runs.count())):
            dialog.runs.item(i).setSelected(True)
        dialog.annotators.setText("alice, ada, ben")
        dialog.sample.setValue(50)
        dialog.strategy.setCurrentIndex(dialog.strategy.findData("ab"))
        dialog.guidelines.setPlainText(GUIDELINES)
        dialog.show()
        settle(app)
        written.append(args.out / f"campaign-dialog{tail}.png")
        dialog.grab().save(str(written[-1]))
        dialog.resize(1024, 700)  # the smallest screen the app is laid out for
        settle(app)
        if args.lang == "en":
            dialog.grab().save(str(args.out / "campaign-dialog-1024x700.png"))
            written.append(args.out / "campaign-dialog-1024x700.png")
        dialog.close()
        board = CampaignDashboard(context, window)
        board.resize(size[0], 460)
        board.show()
        settle(app)
        written.append(args.out / f"campaign-dashboard{tail}.png")
        board.grab().save(str(written[-1]))
        board.close()
        panel.release()
        window.close()
        context.set_database(None)
        settle(app)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
