"""The judgment source a machine judge writes into: a source of kind ``model`` with one
annotator of the same name, whose judgments are the judge's grades (scored, compared and
exported like any source's: in the consensus of every annotator, or alone, or left out by
scoring against another source, ``score --source``)."""

from __future__ import annotations

from ndcg_studio.io.errors import InputError
from ndcg_studio.services.stability.service import assign_source
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judges.labels import judge_annotator

__all__ = ["open_model_source"]


def open_model_source(db: Database, source: str) -> int:
    """The id of the annotator of model source ``source``, both created when missing.

    Raises:
        InputError: an empty name; a source of that name whose kind is not ``model``; an
            annotator of that name who is in another source or in none (a human's name).
    """
    if not source.strip():
        raise InputError("--source: the name is empty")
    with db.engine.begin() as conn:
        known = {name: (kind, members) for name, kind, members in source_store.sources(conn)}
        if source in known and known[source][0] != "model":
            raise InputError(
                f"--source {source}: a {known[source][0]} source has that name; "
                "a machine judge writes into a source of kind model"
            )
        of = source_store.source_of(conn)
        from ndcg_studio.storage.queries.names import annotator_names

        exists = source in annotator_names(conn).values()
        if exists and of.get(source, ("", ""))[0] != source:
            raise InputError(
                f"--source {source}: an annotator of that name exists outside the model source "
                f"{source!r}; choose another name"
            )
        annotator_id = judge_annotator(conn, source)
        try:
            assign_source(conn, [source], source, "model")
        except (ValueError, LookupError) as exc:
            raise InputError(f"--source {source}: {exc}") from None
    return annotator_id
