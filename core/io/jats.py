"""The JATS / PubMed Central full-text reader: article metadata as a row, plus each article's figures.

Each figure carries its id, label, caption, position, the body sentences whose ``<xref ref-type="fig">`` points
at it (as written and with the figure mention masked, for training and evaluation) and the image bytes when the
upload holds the graphic file. XML is parsed with entity resolution, DTD loading and network access off.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.cut_short import xml_text_refusal
from core.io.image_spill import ImageSpill
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _expanded_limit, _name, _open_binary, _shown
from core.records import RowError

MAX_XML_BYTES = 64 * 2**20
MAX_IMAGE_BYTES = 8 * 2**20
IMAGE_TYPES = (".jpg", ".jpeg", ".png", ".gif", ".webp")
MASK = "[FIG]"
_MARK = re.compile("\ue000(\\d+)\ue001")
_SPACE = re.compile(r"\s+")
_ABBREV = re.compile(r"(?:\b(?:Fig|Figs|Eq|Eqs|Ref|Refs|No|Nos|vs|al|e\.g|i\.e|ca|cf|approx|resp|Tab|Suppl|sp|spp|"
                     r"cv|var|Dr|Mr|Mrs|St|Ltd|Inc|Co|Ltd)|\b[A-Z])\.$")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9\ue000])")
_SKIP_IN_TEXT = frozenset(("fig", "fig-group", "table-wrap", "table-wrap-group", "boxed-text", "disp-formula",
                           "supplementary-material", "graphic", "media", "alternatives"))
_XLINK = "{http://www.w3.org/1999/xlink}href"


class FigureList(list):
    """A paper's figures inside a raw row; shown as a short summary wherever rows are previewed."""

    def __str__(self) -> str:
        return f"{len(self)} figure{'s' if len(self) != 1 else ''}"

    __repr__ = __str__


@dataclass
class Figure:
    """One figure of an article: what the reader found, and the image bytes when the upload held them."""

    id: str
    label: str
    caption: str
    position: int
    references: list[str] = field(default_factory=list)
    masked: list[str] = field(default_factory=list)
    mentions: int = 0
    graphic: str | None = None
    image: bytes | None = None
    image_type: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain dict without the image bytes."""
        return {"id": self.id, "label": self.label, "caption": self.caption, "position": self.position,
                "references": self.references, "masked": self.masked, "mentions": self.mentions,
                "graphic": self.graphic, "has_image": self.image is not None}


def _parser() -> Any:
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                           remove_comments=True, remove_pis=True)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _text(node: Any) -> str:
    return _SPACE.sub(" ", "".join(node.itertext())).strip() if node is not None else ""


def _first(root: Any, path: str) -> Any:
    found = root.xpath(path)
    return found[0] if found else None


def split_sentences(text: str) -> list[str]:
    """Split a paragraph into sentences at '.', '!' or '?' before a capital, keeping 'Fig. 2', 'et al.' whole."""
    sentences, start = [], 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start:match.start()].rstrip()
        if _ABBREV.search(piece.rstrip("\"')]")):
            continue
        sentences.append(piece.strip())
        start = match.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


def _marked_text(node: Any, refs: list[tuple[list[str], str]]) -> str:
    """A paragraph's text with each figure xref replaced by a marker; refs gets (rid tokens, xref text)."""
    parts = [node.text or ""]
    for child in node:
        name = _local(child.tag)
        if name == "xref" and child.get("ref-type") == "fig":
            refs.append(((child.get("rid") or "").split(), _text(child)))
            parts.append(f"\ue000{len(refs) - 1}\ue001")
        elif name not in _SKIP_IN_TEXT:
            parts.append(_marked_text(child, refs))
        parts.append(child.tail or "")
    return "".join(parts)


def _mask(sentence: str, refs: list[tuple[list[str], str]]) -> tuple[str, str]:
    """(the sentence as written, the sentence with every figure mention replaced by [FIG])."""
    written = _SPACE.sub(" ", _MARK.sub(lambda m: refs[int(m.group(1))][1], sentence)).strip()
    masked = _MARK.sub(MASK, sentence)
    masked = re.sub(r"\b(?:Figures?|Figs?\.?)\s*(?=\[FIG\])", "", masked, flags=re.IGNORECASE)
    return written, _SPACE.sub(" ", masked).strip()


def _references(body: Any, figures: dict[str, Figure]) -> None:
    """Attach to each figure the sentences of body paragraphs that reference it."""
    if body is None:
        return
    for para in body.iter("{*}p", "p"):
        if any(_local(a.tag) in _SKIP_IN_TEXT or _local(a.tag) in ("p", "caption") for a in para.iterancestors()):
            continue
        refs: list[tuple[list[str], str]] = []
        text = _SPACE.sub(" ", _marked_text(para, refs))
        if not refs:
            continue
        for sentence in split_sentences(text):
            indexes = [int(i) for i in _MARK.findall(sentence)]
            if not indexes:
                continue
            written, masked = _mask(sentence, refs)
            for index in indexes:
                for rid in refs[index][0]:
                    figure = figures.get(rid)
                    if figure is None:
                        continue
                    figure.mentions += 1
                    if written not in figure.references:
                        figure.references.append(written)
                        figure.masked.append(masked)


def _figures(root: Any) -> dict[str, Figure]:
    figures: dict[str, Figure] = {}
    for position, fig in enumerate(root.xpath("//*[local-name()='fig']")):
        fid = fig.get("id") or f"fig-{position + 1}"
        caption = _first(fig, "./*[local-name()='caption']")
        graphic = _first(fig, ".//*[local-name()='graphic']")
        figures[fid] = Figure(
            id=fid, label=_text(_first(fig, "./*[local-name()='label']")) or f"Figure {position + 1}",
            caption=_text(caption), position=position,
            graphic=graphic.get(_XLINK) if graphic is not None else None,
        )
    return figures


def _article_id(meta: Any, kind: str) -> str | None:
    node = _first(meta, f"./*[local-name()='article-id'][@pub-id-type='{kind}']")
    return _text(node) or None


def _abstract(meta: Any) -> str:
    abstracts = meta.xpath("./*[local-name()='abstract']")
    plain = [a for a in abstracts if not a.get("abstract-type")] or abstracts
    if not plain:
        return ""
    sections = []
    for sec in plain[0].xpath("./*[local-name()='sec']") or [plain[0]]:
        title = _text(_first(sec, "./*[local-name()='title']"))
        text = " ".join(_text(p) for p in sec.xpath(".//*[local-name()='p']")) or (
            "" if sec is not plain[0] else _text(sec))
        sections.append(f"{title}: {text}" if title and text else text)
    return "\n\n".join(s for s in sections if s)


def _authors(meta: Any) -> list[str]:
    names = []
    for name in meta.xpath(".//*[local-name()='contrib'][@contrib-type='author']/*[local-name()='name']"):
        surname = _text(_first(name, "./*[local-name()='surname']"))
        given = _text(_first(name, "./*[local-name()='given-names']"))
        names.append(" ".join(filter(None, (surname, given))))
    return [n for n in names if n]


def _reference_list(root: Any) -> list[dict[str, str]]:
    """Each ``<ref>`` of the article's ``<ref-list>`` as its DOI / PMID / PMCID (or its text when it has none)."""
    refs = []
    for ref in root.xpath("./*[local-name()='back']//*[local-name()='ref-list']//*[local-name()='ref']"):
        ids: dict[str, str] = {}
        for pub_id in ref.xpath(".//*[local-name()='pub-id']"):
            kind = (pub_id.get("pub-id-type") or "").lower()
            kind = {"pmc": "pmcid", "pmcid": "pmcid", "doi": "doi", "pmid": "pmid"}.get(kind, "")
            if kind and _text(pub_id) and kind not in ids:
                ids[kind] = _text(pub_id)
        refs.append(ids or {"text": _text(ref)[:80]})
    return refs


def parse_article(data: bytes, source: str) -> tuple[Row, FigureList]:
    """One JATS article (bytes) as a raw row with a 'figures' FigureList; CorpusError names ``source``."""
    from lxml import etree

    if b"<!ENTITY" in data[:65536]:
        raise CorpusError(f"file '{source}' declares XML entities, which are refused for safety")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as error:
        raise xml_text_refusal(source, error, lambda: data.count(b"\n") + (not data.endswith(b"\n"))) from None
    if _local(root.tag) != "article":
        raise CorpusError(f"file '{source}' is not a JATS article (its root element is <{_local(root.tag)}>)")
    meta = _first(root, "./*[local-name()='front']/*[local-name()='article-meta']")
    if meta is None:
        raise CorpusError(f"file '{source}' has no <article-meta>")
    figures = _figures(root)
    _references(_first(root, "./*[local-name()='body']"), figures)
    pmcid = _article_id(meta, "pmcid") or _article_id(meta, "pmc")
    if pmcid and not pmcid.upper().startswith("PMC"):
        pmcid = f"PMC{pmcid}"
    years = [_year(_text(_first(d, "./*[local-name()='year']"))) for d in meta.xpath("./*[local-name()='pub-date']")]
    row: Row = {
        "id": pmcid or _article_id(meta, "doi") or _article_id(meta, "pmid"),
        "title": _text(_first(meta, "./*[local-name()='title-group']/*[local-name()='article-title']")),
        "abstract": _abstract(meta),
        "journal": _text(_first(root, "./*[local-name()='front']/*[local-name()='journal-meta']"
                                      "//*[local-name()='journal-title']")) or None,
        "year": min((y for y in years if y), default=None),
        "doi": _article_id(meta, "doi"), "pmid": _article_id(meta, "pmid"), "pmcid": pmcid,
        "authors": _authors(meta),
        "keywords": [_text(k) for k in meta.xpath(".//*[local-name()='kwd']") if _text(k)],
        "source_file": source,
    }
    references = _reference_list(root)
    if references:
        row["references"] = references
    listed = FigureList(sorted(figures.values(), key=lambda f: f.position))
    row["figures"] = listed
    return row, listed


def _attach_images(figures: FigureList, images: dict[str, tuple[str, Any]]) -> None:
    """Give each figure the bytes of its graphic file (matched by name without extension)."""
    for figure in figures:
        if not figure.graphic:
            continue
        stem = Path(figure.graphic).name.lower()
        found = images.get(stem) or images.get(Path(stem).stem)
        if found:
            figure.image_type, read = found
            figure.image = read()


def _archive_members(path: Path) -> Iterator[tuple[str, bytes | None, str | None]]:
    """(member name, bytes or None, problem or None) of a .tar(.gz) of JATS files and images."""
    import tarfile

    try:
        archive = tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError, EOFError):
        raise CorpusError(f"file '{_name(path)}' is not a readable .tar.gz archive; it may be cut short (an "
                          "interrupted download or copy): download it again") from None
    budget = _expanded_limit()
    with archive:
        try:
            for member in archive:
                if not member.isfile():
                    continue
                budget -= member.size
                if budget < 0:
                    raise CorpusError(f"file '{_name(path)}' expands to more than the limit set by "
                                      "MIREAD_MAX_EXPANDED_BYTES")
                limit = MAX_IMAGE_BYTES if member.name.lower().endswith(IMAGE_TYPES) else MAX_XML_BYTES
                if member.size > limit:
                    yield member.name, None, f"is larger than {limit // 2**20} MiB; skipped"
                    continue
                handle = archive.extractfile(member)
                yield member.name, handle.read() if handle else None, None
        except (tarfile.TarError, OSError, EOFError):
            yield _name(path), None, "ends early (a damaged archive); the articles before the damage were read"


def _jats_rows(path: Path) -> Iterator[NumberedRow]:
    """Numbered rows of a .xml/.nxml JATS article or a .tar(.gz) of them (with images, when present)."""
    lowered = path.name.lower()
    if lowered.endswith((".xml", ".nxml", ".xml.gz", ".nxml.gz")):
        with _open_binary(path) as stream:
            data = stream.read(MAX_XML_BYTES + 1)
        if not data.strip():
            raise CorpusError(f"file '{_name(path)}' is empty")
        if len(data) > MAX_XML_BYTES:
            raise CorpusError(f"file '{_name(path)}' is larger than {MAX_XML_BYTES // 2**20} MiB")
        yield 1, parse_article(data, _name(path))[0]
        return
    # one member at a time (issue 41): each article is parsed as it comes and only its row is kept; image bytes
    # wait in a temporary file until the rows are given their figures (images may come after their article)
    parsed: list[tuple[int, Row | RowError, FigureList | None, str]] = []
    with ImageSpill() as images:
        for name, data, problem in _archive_members(path):
            folder, base = str(Path(name).parent), Path(name).name.lower()
            if base.endswith((".xml", ".nxml")) or problem:
                number = len(parsed) + 1
                if problem or data is None:
                    why = problem or "could not be read"
                    parsed.append((number, RowError(number, f"row {number}: file '{_shown(name)}' {why}"), None, ""))
                    continue
                try:
                    row, figures = parse_article(data, name)
                except CorpusError as error:
                    parsed.append((number, RowError(number, f"row {number}: {error}; skipped"), None, ""))
                    continue
                finally:
                    data = None  # not held while the next member is read
                parsed.append((number, row, figures, folder))
            elif base.endswith(IMAGE_TYPES) and data is not None:
                images.add(folder, base, Path(base).suffix.lstrip(".").replace("jpg", "jpeg"), data)
        if not parsed:
            raise CorpusError(f"file '{_name(path)}' holds no .xml or .nxml articles")
        for number, row, figures, folder in parsed:
            if figures:
                _attach_images(figures, images.folder(folder))
            yield number, row


def is_jats(head: str) -> bool:
    """Whether the start of an XML file looks like a JATS article rather than PubMed records."""
    article = re.search(r"<article[\s>]", head)
    pubmed = re.search(r"<(?:PubmedArticleSet|PubmedArticle|MedlineCitation)[\s>]", head)
    return bool(article) and (not pubmed or article.start() < pubmed.start())


class FigureCollector(Iterator[Any]):
    """Pass a record stream through, taking each paper's 'figures' field out into ``by_paper`` (id -> figures).

    Answers for the stream's attributes (``id_column``, ``id_note``, ...); after the import,
    ``store.save_figures(corpus, by_paper)``.
    """

    def __init__(self, records: Iterator[Any]):
        self._records = records
        self.by_paper: dict[str, list[Figure]] = {}
        self.full_text = False

    def __getattr__(self, name: str) -> Any:  # the stream's own attributes (id_column, id_note, columns, ...)
        if name.startswith("__") or name == "_records":
            raise AttributeError(name)
        return getattr(self._records, name)

    def __next__(self) -> Any:
        record = next(self._records)
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict) and isinstance(fields.get("figures"), list):
            figures = fields.pop("figures")
            self.full_text = True
            if figures:
                self.by_paper[record.id] = list(figures)
        return record


def bundle_files(paths: list[Path], folder: Path) -> Path:
    """Pack several JATS files (and image files) into one uncompressed tar in ``folder``, to import as one file."""
    import tarfile

    bundle = Path(folder) / "articles.tar"
    with tarfile.open(bundle, "w") as archive:
        for path in paths:
            path = Path(path)
            if not path.is_file():
                raise CorpusError(f"file '{_name(path)}' was not found")
            if not path.name.lower().endswith((".xml", ".nxml", *IMAGE_TYPES)):
                raise CorpusError(f"file '{_name(path)}': several files at once are for JATS articles (.xml, .nxml) "
                                  "and their images; import other formats one file at a time")
            archive.add(path, arcname=path.name, recursive=False)
    return bundle
