"""The main window: a thin shell of tabs, menus and a status bar around the views.

- :mod:`.main_window` — the window, its tabs and menus;
- :mod:`.status_bar` — the status bar (database, annotator, team, counts, fitted messages);
- :mod:`.databases` — File ▸ New, Open, Connect to server: the database actions;
- :mod:`.transfer` — File ▸ Import… and Export…, with progress and Cancel.

Each part is an object the window owns and talks to through the context's signals.
"""
