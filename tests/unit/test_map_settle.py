"""The map page's runs do less (issue 42, BENCHMARKS §31n): the stored topics are read from disk once per version of
their files, not on every page run."""

from __future__ import annotations

import os

import numpy as np

from core.explore.topics.hierarchy import Topics
from ui.map.topics import _stored


def _topics() -> Topics:
    return Topics(fine=np.array([0, 1]), coarse=np.array([0, 0]), parent=np.array([0, 0]),
                  keywords={"coarse": {0: ["a"]}, "fine": {0: ["b"], 1: ["c"]}})


def test_stored_topics_are_read_once_per_version_of_their_files(tmp_path):
    labels, meta = tmp_path / "t.npy", tmp_path / "t.json"
    reads = []

    def read() -> Topics:
        reads.append(1)
        return _topics()

    assert _stored(labels, meta, read) is None and reads == []  # not computed yet: nothing read, nothing kept
    labels.write_bytes(b"x")
    meta.write_text("{}")
    first = _stored(labels, meta, read)
    assert _stored(labels, meta, read) is first and len(reads) == 1  # the next page runs: no disk read
    meta.write_text("{} ")  # computed again (another size, a later stamp)
    os.utime(meta, ns=(meta.stat().st_atime_ns, meta.stat().st_mtime_ns + 10**9))
    assert _stored(labels, meta, read) is not first and len(reads) == 2
    assert _stored(labels, meta, lambda: None) is not None  # the kept one, not read again
