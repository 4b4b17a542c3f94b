"""What the heavy map instance is sent for each paper (ui/map/points.py `points_table`, packed by ui/map/packing.py):
positions in [-1, 1], the hover card's text, each paper's year once (BENCHMARKS §31m: at 1M papers every column is
megabytes on the websocket and in the browser)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from core.plots.map_data import unit_frame
from ui.map.packing import pack, unpack
from ui.map.points import points_table


def _frame(n: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    return pd.DataFrame({
        "id": [f"p{i}" for i in range(n)],
        "title": [None if i % 50 == 0 else "  " if i % 51 == 0 else f"<b>Title</b> {i} " + "x" * (i % 300)
                  for i in range(n)],
        "authors": [["Yang, Z.", "Jiang, B.", "Xu, J.", "Li, Q."] if i % 3 == 0 else None for i in range(n)],
        "journal": rng.choice(["J. Galaxy", "J. Protein", None], n).tolist(),
        "year": [None if i % 7 == 0 else 1990 + i % 35 for i in range(n)],
    })


def _sent(frame: pd.DataFrame) -> pa.Table:
    coords = np.random.default_rng(1).normal(size=(len(frame), 2))
    table = points_table(coords, frame, unit_frame(coords))
    return unpack(pack({"n": len(frame)}, pa.Table.from_pandas(table, preserve_index=False)))[1]


def test_the_year_is_sent_once_as_a_number():
    sent = _sent(_frame())
    assert "year" not in sent.column_names  # the card's year is made from the number in the browser
    years = sent.column("yearnum").to_numpy(zero_copy_only=False)
    assert years.dtype == np.float32
    assert np.isnan(years[0]) and years[1] == 1991 and years[8] == 1998


def test_hover_text_is_the_papers_own_plain_text():
    frame = _frame()
    sent = _sent(frame)
    titles = sent.column("title").to_pylist()
    assert titles[0] == "" and titles[51] == ""  # missing and blank: no text
    assert titles[1] == "<b>Title</b> 1 x"  # as it is: the browser sets it as text, never as HTML
    assert all(len(t) <= 200 for t in titles) and titles[299].startswith("<b>Title</b> 299 ")
    assert sent.column("author").to_pylist()[3] == "Yang, Z.; Jiang, B.; Xu, J. et al."
    assert sent.column("author").to_pylist()[1] == ""
    journals = sent.column("journal").to_pylist()
    assert journals == ["" if pd.isna(j) else j for j in frame["journal"]]


def test_journal_names_are_sent_once_each():
    sent = _sent(_frame())
    assert pa.types.is_dictionary(sent.column("journal").type)  # an index a paper, each name once
    assert sorted(sent.column("journal").chunk(0).dictionary.to_pylist()) == ["", "J. Galaxy", "J. Protein"]


def test_a_windows_papers_keep_their_own_text():
    frame = _frame()
    rows = [9, 2, 5]  # a density overview's window: some rows, in its own order (the frame's index is theirs)
    coords = np.random.default_rng(1).normal(size=(len(frame), 2))
    table = points_table(coords[rows], frame.iloc[rows], unit_frame(coords))
    assert table["title"].tolist() == [frame["title"].iloc[r][:200] for r in rows]
    assert table["yearnum"].tolist()[1:] == [1992.0, 1995.0]


def test_the_map_key_names_the_positions_the_ids_and_the_notes() -> None:
    """§31z: the ids' digest is one hash of their joined text; the same papers give the same key in any frame object,
    another id, order, position or hover note another key."""
    import numpy as np
    import pandas as pd

    from ui.map.points import map_key

    coords = np.arange(6, dtype=np.float32).reshape(3, 2)
    frame = pd.DataFrame({"id": ["a", "b", "c"], "title": ["x", "y", "z"]})
    key = map_key("c", coords, frame)
    assert map_key("c", coords, frame.copy()) == key
    assert map_key("c", coords, frame.assign(id=["a", "b", "d"])) != key
    assert map_key("c", coords, frame.assign(id=["b", "a", "c"])) != key
    assert map_key("c", coords + 1, frame) != key
    assert map_key("c", coords, frame.assign(id=["a", "b\x00c", ""])) != key
    noted = frame.assign(card_note=["n1", "n2", "n3"])
    assert map_key("c", coords, noted) != key
    assert map_key("c", coords, noted.assign(card_note=["n1", "n2", "n4"])) != map_key("c", coords, noted)


def test_a_kept_stream_packs_as_its_table_and_a_cut_file_is_not_read(tmp_path) -> None:
    """§31z: the points kept as IPC streams in one file pack to the same bytes as their table; a file cut short (a
    full disk, a copy stopped) reads as none, never as other points."""
    from ui.map.packing import load_streams, save_streams, stream

    frame = _frame(50)
    table = pa.Table.from_pandas(points_table(np.random.default_rng(1).normal(size=(50, 2)), frame,
                                              unit_frame(np.ones((50, 2)))), preserve_index=False)
    meta = {"key": "k", "n": 50}
    assert pack(meta, stream(table)) == pack(meta, table)
    parts = (stream(table.select(["x", "y"])), stream(table.drop_columns(["x", "y"])))
    save_streams(tmp_path / "p.bin", parts)
    assert load_streams(tmp_path / "p.bin", 2) == parts
    data = (tmp_path / "p.bin").read_bytes()
    (tmp_path / "p.bin").write_bytes(data[:-10])
    assert load_streams(tmp_path / "p.bin", 2) is None
    (tmp_path / "p.bin").write_bytes(data + b"x")
    assert load_streams(tmp_path / "p.bin", 2) is None
    assert load_streams(tmp_path / "none.bin", 2) is None
    assert unpack(pack(meta, parts[1]))[1].column_names == ["title", "author", "journal", "yearnum"]
