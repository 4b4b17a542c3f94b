"""Small uploads that once took a gigabyte (issue 41, item 4): a PMC .tar.gz of large XML members (all held in memory
before parsing) and an .xlsx whose shared strings expand ~200-fold (openpyxl holds them all). Each is read in a
fresh process whose peak resident memory (VmHWM: ru_maxrss would keep the parent's peak across exec) must stay
under 500 MB."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT_MB = 500

_CHILD = """
import json, sys, time
from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper, RowError
start = time.perf_counter()
papers = errors = 0
message = ""
try:
    for item in read_papers(sys.argv[1]):
        papers += isinstance(item, Paper)
        errors += isinstance(item, RowError)
except CorpusError as error:
    message = str(error)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"papers": papers, "errors": errors, "message": message, "seconds": time.perf_counter() - start,
                  "peak_mb": peak / 1024}))
"""


def _read_in_child(path: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "MIREAD_READ_PROCESS_ABOVE": "off"})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _article(number: int, body_mb: int) -> bytes:
    """A JATS article with a long appendix (1 MB paragraphs): large as XML, tiny once compressed. (In the body,
    the reader's citation scan would take 6 s per article: a cost of its own, not this test's.)"""
    paragraph = b"<p>" + b"Galaxies and dark matter halos in the early universe. " * 19_000 + b"</p>"
    body = paragraph * (body_mb * 2**20 // len(paragraph))
    return (b'<?xml version="1.0"?><article><front><journal-meta><journal-title>J. Big</journal-title></journal-meta>'
            b"<article-meta><article-id pub-id-type=\"pmcid\">PMC" + str(number).encode() + b"</article-id>"
            b"<title-group><article-title>Large article " + str(number).encode() + b"</article-title></title-group>"
            b"<abstract><p>A short abstract about large archives.</p></abstract></article-meta></front>"
            b"<body><p>Short body.</p></body><back><app-group><app>" + body + b"</app></app-group></back></article>")


@pytest.fixture(scope="module")
def big_members(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 articles of 45 MB each (540 MB of XML) in a ~2 MB .tar.gz."""
    path = tmp_path_factory.mktemp("bombs") / "pmc_large_members.tar.gz"
    with tarfile.open(path, "w:gz", compresslevel=1) as archive:
        for number in range(12):
            data = _article(number, 45)
            info = tarfile.TarInfo(f"PMC{number}/article{number}.nxml")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture(scope="module")
def shared_strings_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-column workbook whose sharedStrings.xml holds 12 million tiny strings (~250 MB) in about 1.5 MB."""
    path = tmp_path_factory.mktemp("bombs") / "shared_strings_bomb.xlsx"
    count = 12_000_000
    parts = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
            'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType='
            '"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (
            '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
            '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
            '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.'
            'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
            '</Relationships>'),
        "xl/worksheets/sheet1.xml": (
            '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
            '2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
            '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row></sheetData></worksheet>'),
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        for name, text in parts.items():
            book.writestr(name, text)
        with book.open("xl/sharedStrings.xml", "w", force_zip64=True) as strings:
            strings.write(b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
                          b'spreadsheetml/2006/main"><si><t>title</t></si><si><t>abstract</t></si>')
            chunk = b"<si><t>x</t></si>" * 100_000
            for _ in range(count // 100_000):
                strings.write(chunk)
            strings.write(b"</sst>")
    return path


def test_a_tar_gz_of_large_articles_is_read_one_member_at_a_time(big_members: Path):
    assert big_members.stat().st_size < 4 * 2**20
    result = _read_in_child(big_members)
    print(result)
    assert result["papers"] == 12, result
    assert result["peak_mb"] < LIMIT_MB, result


def test_an_xlsx_shared_strings_bomb_is_refused_before_it_is_expanded(shared_strings_bomb: Path):
    assert shared_strings_bomb.stat().st_size < 4 * 2**20
    result = _read_in_child(shared_strings_bomb)
    print(result)
    assert result["papers"] == 0 and "compress" in result["message"], result
    assert "MIREAD_MAX_EXPANDED_BYTES" in result["message"], result
    assert result["peak_mb"] < LIMIT_MB and result["seconds"] < 10, result
