"""Pure domain: numpy + dataclasses (metrics, agreement, bands, consensus). No Qt, no SQL."""
