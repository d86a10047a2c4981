"""Annotate: judge a query's pooled documents from the keyboard, blind to runs and to each other.

- :mod:`.view` — the view: three panels and the keyboard;
- :mod:`.document` — the centre: the query and the document as a card, the grade legend;
- :mod:`.panels` — the side panels: the query list with progress, the pool of the open query;
- :mod:`.keys` — the key map;
- :mod:`.loading` — the query list and the pool loaded in workers;
- :mod:`.grading` — a grade, a cleared grade or a note as one undoable edit.

The view owns its loader and grader; they talk to it through signals and the context.
"""
