"""Uploads are kept only while needed (issue 41, item 5): written once from the uploader's buffer, removed when the
uploader lets go of them (after an import, or removed by the user), and an earlier run's leftovers removed at start."""

from __future__ import annotations

import os
import time
from pathlib import Path

from core.store.uploads import clean_uploads, remove_upload, save_upload, uploads_dir
from ui.uploads import kept_uploads


class _Upload:
    """What Streamlit's UploadedFile offers the Library: a name and its buffer."""

    def __init__(self, name: str, data: bytes):
        self.name, self._data = name, data

    def getbuffer(self) -> memoryview:
        return memoryview(self._data)

    def getvalue(self) -> bytes:  # a whole copy: the Library must not call it (a 1 GB upload would hold 2 GB)
        raise AssertionError("getvalue copies the whole upload")


def test_an_upload_is_written_once_under_its_name_and_removed_when_the_uploader_lets_go(tmp_path: Path):
    session: dict = {}
    first = kept_uploads([_Upload("a.ris", b"TY  - JOUR\n"), _Upload("../b.csv", b"id,title\n")], tmp_path, session)
    assert [p.name for p, _, _ in first] == ["a.ris", "b.csv"]
    assert all(p.read_bytes() for p, _, _ in first) and all(p.parent.parent == uploads_dir(tmp_path) for p, _, _ in first)
    again = kept_uploads([_Upload("a.ris", b"TY  - JOUR\n")], tmp_path, session)  # b.csv removed by the user
    assert again[0][0] == first[0][0] and first[0][0].exists()
    assert not first[1][0].parent.exists()
    kept_uploads([], tmp_path, session)  # the import is over: the uploader starts empty
    assert list(uploads_dir(tmp_path).iterdir()) == []


def test_a_refused_upload_goes_too(tmp_path: Path):
    session: dict = {}
    (path, _, _), = kept_uploads([_Upload("random.bin.csv", os.urandom(4096))], tmp_path, session)
    assert path.exists()
    kept_uploads([], tmp_path, session)
    assert not path.exists()


def test_at_start_an_earlier_runs_uploads_are_removed_and_recent_ones_kept(tmp_path: Path):
    old, _ = save_upload(tmp_path, "old.csv", b"x")
    new, _ = save_upload(tmp_path, "new.csv", b"y")
    past = time.time() - 7200
    os.utime(old.parent, (past, past))
    assert clean_uploads(tmp_path) == 1
    assert not old.exists() and new.exists()
    assert not remove_upload(tmp_path, tmp_path)  # only a folder directly under uploads/
    assert tmp_path.exists()
