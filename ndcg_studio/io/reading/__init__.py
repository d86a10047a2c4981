"""The machinery every file reader shares, apart from the formats themselves.

- :mod:`.text` — decoding a file, collecting its problems by line and field, splitting lines;
- :mod:`.columns` — whole columns parsed and checked at once (integers, floats), failures located
  one by one;
- :mod:`.table` — the CSV/TSV rules (delimiter, header) of the tabular readers;
- :mod:`.pieces` — a large file read in pieces of whole lines, each checked as a whole file is;
- :mod:`.ticker` — progress and Cancel in lines.

The format modules (:mod:`ndcg_studio.io.trec`, :mod:`ndcg_studio.io.tabular`) define what users
import; these modules define how reading works, so a format never re-implements it.
"""
