"""Where a remote judge's API key comes from: an environment variable or the system keyring.

The key is looked up when a job starts and handed to the client only; it is never written to
the database (``judge_labels.params`` holds no key), the settings, a log or an export.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

__all__ = ["KEYRING_SERVICE", "KEY_VARIABLES", "api_key", "keyring_user"]

#: Environment variables read, first found wins.
KEY_VARIABLES = ("NDCG_STUDIO_API_KEY", "OPENAI_API_KEY")

#: The keyring service name; the user name is the base URL's host (see :func:`keyring_user`).
KEYRING_SERVICE = "ndcg-studio"


def keyring_user(base_url: str) -> str:
    """The keyring user name of a server: its host and port (``api.openai.com``,
    ``127.0.0.1:8000``)."""
    return urlsplit(base_url).netloc or base_url


def api_key(base_url: str, variable: str | None = None) -> tuple[str | None, str]:
    """The key for ``base_url`` and where it came from (for messages; never the key itself).

    Looks at ``variable`` (when given), then :data:`KEY_VARIABLES`, then the keyring entry
    (:data:`KEYRING_SERVICE`, :func:`keyring_user`). A keyring that is absent or fails (no
    backend on a headless machine) counts as no entry.

    Returns:
        ``(key or None, "environment variable NAME" | "keyring" | "none")``.
    """
    for name in ([variable] if variable else []) + list(KEY_VARIABLES):
        value = os.environ.get(name)
        if value:
            return value, f"environment variable {name}"
    try:
        import keyring

        value = keyring.get_password(KEYRING_SERVICE, keyring_user(base_url))
    except Exception:  # no keyring backend: no key from there
        value = None
    if value:
        return value, "keyring"
    return None, "none"
