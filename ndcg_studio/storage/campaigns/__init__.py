"""Campaign SQL: the tables of migrations 0006 and 0007, read and written for the campaign service.

- :mod:`.records` — creating, finding, listing and closing campaigns, the campaign lock;
- :mod:`.queue` — what the queue may offer an annotator, holds (leases) and marks;
- :mod:`.reads` — the lead's dashboard, the exports of every grade and mark, own progress;
- :mod:`.keys` — how the campaign tables' rows meet an item, and whether a row with a key exists.

Split by who asks: the lead's set-up (records), an annotator's next item (queue), and the reports
(reads); the keys they all join and look up by are written once (keys). Every function takes the
caller's session, inside the transaction of the use case.
"""
