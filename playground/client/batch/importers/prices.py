"""A price table as the Prices panel's CSV, which a `cost` grader keeps (so a run file carries the
prices its cost verdicts were counted with)."""

from __future__ import annotations

import csv
import io

from playground.client.batch.cost import COLUMNS, Price, table_rows


def prices_csv(table: dict[str, Price]) -> str:
    """`model,input,output,cached_input` and one line per model ("" for an empty table)."""
    if not table:
        return ""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(table_rows(table))
    return out.getvalue()
