"""Topics over time: papers per year per group (a label column's values or named clusters), top groups + 'other'."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.errors import MireadError
from core.labels import NONE_LABEL, label_texts

OTHER = "other"


def papers_per_year(years: Sequence[float], groups: Sequence, top: int = 8) -> pd.DataFrame:
    """A year x group table of paper counts (pandas crosstab): every year from the first to the last (zeros
    filled), the ``top`` largest groups as columns (largest first), the rest summed as 'other'. Papers without a
    year are left out; a missing group counts as '(none)'."""
    if len(years) != len(groups):
        raise MireadError(f"got {len(years)} years for {len(groups)} group labels")
    if top < 1:
        raise MireadError(f"keep at least one group, not {top}")
    values = pd.to_numeric(pd.Series(list(years), dtype=object), errors="coerce").to_numpy(dtype=float)
    known = np.isfinite(values)
    if not known.any():
        raise MireadError("no paper has a year, so there is no timeline to draw")
    names = np.array(label_texts(groups, NONE_LABEL), dtype=object)[known]
    counts = pd.Series(names).value_counts()
    keep = set(counts.index[:top])
    names = np.where(np.isin(names, list(keep)), names, OTHER)
    table = pd.crosstab(pd.Series(values[known].astype(int), name="year"), pd.Series(names, name="group"))
    order = [g for g in counts.index[:top]] + ([OTHER] if OTHER in table.columns and OTHER not in keep else [])
    span = range(int(table.index.min()), int(table.index.max()) + 1)
    return table.reindex(index=span, columns=order, fill_value=0).rename_axis(index="year", columns="group")
