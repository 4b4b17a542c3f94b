"""JATS / PMC full text: metadata, figures, captions and referencing sentences, counted against the XML itself."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from lxml import etree

from core.cli import main
from core.errors import CorpusError
from core.io import FigureCollector, detect_format, parse_article, read_papers, split_sentences
from core.records import RowError

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "jats"
FILES = sorted(REAL.glob("*.xml"))
SKIPPED = ("fig", "fig-group", "table-wrap", "table-wrap-group", "boxed-text", "disp-formula",
           "supplementary-material", "graphic", "media", "alternatives", "caption")


def _tree(path: Path):
    return etree.fromstring(path.read_bytes(), etree.XMLParser(resolve_entities=False, no_network=True,
                                                               load_dtd=False))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_figures_captions_and_references_match_an_independent_xpath_count(path):
    tree = _tree(path)
    row, figures = parse_article(path.read_bytes(), path.name)
    assert [f.id for f in figures] == tree.xpath("//fig/@id")
    assert [f.label for f in figures] == [" ".join("".join(f.xpath("./label")[0].itertext()).split())
                                          for f in tree.xpath("//fig")]
    assert sum(bool(f.caption) for f in figures) == len(tree.xpath("//fig[caption]"))
    outside = " or ".join(f"ancestor::{tag}" for tag in SKIPPED)
    in_body = tree.xpath(f"//body//xref[@ref-type='fig'][ancestor::p][not({outside})]")
    assert sum(f.mentions for f in figures) == len(in_body)
    for figure in figures:
        expected = sum(figure.id in (x.get("rid") or "").split() for x in in_body)
        assert figure.mentions == expected, figure.id
        assert len(figure.references) == len(figure.masked) <= figure.mentions
        assert all("[FIG]" in m for m in figure.masked)
    assert row["figures"] is figures


def test_article_metadata_is_read():
    path = REAL / "PMC6137811.xml"
    row, figures = parse_article(path.read_bytes(), path.name)
    assert row["id"] == row["pmcid"] == "PMC6137811"
    assert row["title"] == "Does Late Maturity Alpha-Amylase Impact Wheat Baking Quality?"
    assert row["doi"] == "10.3389/fpls.2018.01356"
    assert row["journal"] == "Frontiers in Plant Science" and row["year"] == 2018
    assert len(row["authors"]) >= 2 and all(a.strip() for a in row["authors"])
    assert len(row["abstract"]) > 200
    assert str(figures) == "3 figures"
    first = figures[0]
    assert first.label.lower().startswith("fig") and first.caption and first.position == 0
    assert any("Figure" in s or "Fig" in s for s in first.references)


def test_masking_hides_the_figure_mention_and_its_number():
    path = REAL / "PMC6035793.xml"
    _, figures = parse_article(path.read_bytes(), path.name)
    masked = [m for f in figures for m in f.masked]
    assert masked and not any("Fig. 1" in m or "Figure 1" in m or "Fig 1" in m for m in masked)


def test_sentences_split_but_not_after_fig_or_et_al():
    text = "As shown in Fig. 2 the yield rose. Smith et al. found the same (Fig. 3). Next one?"
    assert split_sentences(text) == ["As shown in Fig. 2 the yield rose.", "Smith et al. found the same (Fig. 3).",
                                     "Next one?"]


def test_jats_xml_is_told_apart_from_pubmed_xml(tmp_path):
    assert detect_format(FILES[0]) == "jats"
    pubmed = tmp_path / "p.xml"
    pubmed.write_text("<?xml version='1.0'?><PubmedArticleSet><PubmedArticle/></PubmedArticleSet>")
    assert detect_format(pubmed) == "pubmed"
    assert detect_format(tmp_path / "a.nxml") == "jats" and detect_format(tmp_path / "pack.tar.gz") == "jats"


def test_entity_declarations_are_refused():
    data = b'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY x "boom">]><article>&x;</article>'
    with pytest.raises(CorpusError, match="entities"):
        parse_article(data, "evil.xml")


def _png(colour: tuple[int, int, int]) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, format="PNG")
    return out.getvalue()


def _package(tmp_path: Path, extra: dict[str, bytes]) -> Path:
    """A PMC-style package: one article folder with its XML and a picture for each of its graphics."""
    path = tmp_path / "package.tar.gz"
    article = REAL / "PMC6137811.xml"
    graphics = _tree(article).xpath("//fig/graphic/@xlink:href", namespaces={"xlink": "http://www.w3.org/1999/xlink"})
    with tarfile.open(path, "w:gz") as tar:
        tar.add(article, arcname="PMC6137811/article.nxml")
        for i, name in enumerate(graphics):
            data = _png((200, 40 * i, 40))
            info = tarfile.TarInfo(f"PMC6137811/{name}.png" if "." not in name else f"PMC6137811/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, data in extra.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_a_package_with_images_imports_papers_figures_and_pictures(tmp_path, capsys):
    package = _package(tmp_path, {"broken/article.nxml": b"<article><front>", "other/notes.xml": b"<notes/>"})
    code = main(["--workspace", str(tmp_path / "ws"), "import", str(package), "--corpus", "pmc", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["imported"] == 1 and doc["figures"] == 3
    reasons = [e["reason"] for e in doc["errors"]]
    assert len(reasons) == 2
    assert any("broken/article.nxml" in r and "ends before its XML is closed" in r for r in reasons)  # cut short
    assert any("other/notes.xml" in r and "not a JATS article" in r for r in reasons)
    from core.store import Store

    store = Store(tmp_path / "ws")
    figures = store.figures("pmc")["PMC6137811"]
    assert [f["position"] for f in figures] == [0, 1, 2]
    images = [store.figure_image(f["image"]) for f in figures]
    assert all(p is not None and p.read_bytes().startswith(b"\x89PNG") for p in images)
    assert "figures" not in store.paper("pmc", "PMC6137811").fields


def test_several_files_at_once_and_a_bad_one_named(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text("<article><front><article-meta>")
    files = [str(p) for p in FILES] + [str(bad)]
    code = main(["--workspace", str(tmp_path / "ws"), "import", *files, "--corpus", "three", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["imported"] == 3 and doc["figures"] == 3 + 6 + 9
    assert len(doc["errors"]) == 1 and "bad.xml" in doc["errors"][0]["reason"]


def test_collector_takes_figures_out_of_the_records():
    records = FigureCollector(read_papers(FILES[0]))
    papers = [r for r in records if not isinstance(r, RowError)]
    assert len(papers) == 1 and "figures" not in papers[0].fields
    assert records.full_text and len(records.by_paper[papers[0].id]) > 0
