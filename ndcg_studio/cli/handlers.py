"""Which function runs each ``ndcg-studio`` command: one literal table, no registration by
import side effect. A new command adds its parser in :mod:`ndcg_studio.cli.parser` and its
handler here."""

from __future__ import annotations

from ndcg_studio.cli import (
    campaign,
    changes,
    commands,
    estimate,
    fetch,
    judge,
    runs,
    simulate,
    team,
)
from ndcg_studio.cli import eval as eval_command
from ndcg_studio.cli.common import Handler

HANDLERS: dict[str, Handler] = {
    "import": commands.import_command,
    "score": commands.score_command,
    "demo": commands.demo_command,
    "agreement": commands.agreement_command,
    "export": commands.export_command,
    "simulate": simulate.simulate_command,
    "team": team.team_command,
    "stability": commands.stability_command,
    "campaign": campaign.campaign_command,
    "eval": eval_command.eval_command,
    "judge": judge.judge_command,
    "judges": judge.judges_command,
    "estimate": estimate.estimate_command,
    "fetch-run": fetch.fetch_command,
    "runs": runs.runs_command,
    "changes": changes.changes_command,
}
