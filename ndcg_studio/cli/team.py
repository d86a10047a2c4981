"""``ndcg-studio team add-annotator NAME`` / ``team add-lead NAME``: the logins of a PostgreSQL
team database (README "Team mode", set-up B), run by the database's owner.

Each creates the login (if missing) with the rights :mod:`ndcg_studio.storage.roles` describes
and makes it the login of the annotator of the same name. The password is not taken from the
command line (it would stay in the shell history and the process list): ``--password`` asks for
it on the terminal and sends it encrypted, else the command prints how to set it with psql's
``\\password``.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from ndcg_studio.cli.common import open_db
from ndcg_studio.cli.options import add_command


def add_parser(sub: Any) -> None:
    """Add the ``team`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "team",
        help="team database (PostgreSQL): create annotator and lead logins (run as the owner)",
        description="Create a login for an annotator (grades only its own judgments) or a lead "
        "(also adjudicates) on a PostgreSQL team database; run as the database's owner.",
    )
    actions = p.add_subparsers(dest="team_action", metavar="ACTION", required=True)
    for action, what in (
        ("add-annotator", "a login that grades, notes and clears only its own judgments"),
        ("add-lead", "an annotator login that may also adjudicate (in its own name)"),
    ):
        a = add_command(actions, action, help=what, description=what)
        a.add_argument("name", help="login and annotator name (letters, digits, _ . @ -)")
        a.add_argument(
            "--password",
            action="store_true",
            help="ask for the login's password now (typed twice, not echoed)",
        )


def _ask_password(name: str) -> str:
    first = getpass.getpass(f"Password for {name}: ")
    if first != getpass.getpass(f"Password for {name} (again): "):
        raise ValueError("the two passwords differ; nothing was changed for the password")
    return first


def team_command(args: argparse.Namespace) -> int:
    from ndcg_studio.storage.roles import add_member, set_password

    lead = args.team_action == "add-lead"
    database = open_db(args)
    try:
        member = add_member(database, args.name, lead=lead)
        role = "lead (grades its own judgments and adjudicates)" if lead else "annotator"
        verb = "created" if member.created else "already existed; rights updated"
        print(f"login {member.login!r} {verb}: {role} on database {member.database!r}")
        if args.password:
            set_password(database, member.login, _ask_password(member.login))
            print(f"password of {member.login!r} set")
        elif member.created:
            print(
                f"It has no password yet: set one with 'ndcg-studio team {args.team_action} "
                f"{member.login} --password', or in psql: \\password {member.login}",
                file=sys.stderr,
            )
        # URL.set(password=None) keeps the password (SQLAlchemy 2.1): _replace drops the admin's
        url = database.url.set(drivername="postgresql", username=member.login)._replace(
            password=None
        )
        print(f"{member.login} connects with: ndcg-studio --db {url.render_as_string()}")
    finally:
        database.dispose()
    return 0
