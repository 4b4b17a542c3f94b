// The map's selection listed in the side column (issue 42, BENCHMARKS §31ad): a third role of the map bundle
// (`role: list`, ui/map/component.py `selection_view`). Its rows are the hub's map's selection and their text the
// hover cards' (title, first author, journal, year), all in the browser already: a lasso lists its papers at once,
// with no table sent by Python. Only the rows in view are in the DOM (300k selected at 1M papers scroll as 30);
// a header sorts the whole selection; a row's click opens its paper as a click on its point does, its hover rings
// the point. Text from data is only ever set with textContent.

// A row is the title on its first line and "year · journal · first author" on its second (the figure's summary on a
// third when a selected paper has one): the side column is ~200 px wide on a laptop, too narrow for five columns.
const LINE = 18;  // px a line of a row
const PAD = 8;  // px above and below a row's lines
const MAX_HEIGHT = 420;  // px of rows in view at most
const OVERSCAN = 6;  // rows drawn beyond the view on each side
const COLUMNS = [["title", "Title"], ["figure", "Figure"], ["year", "Year"], ["journal", "Journal"],
  ["author", "First author"]];  // [key, header]: a header's button sorts by it
const LINE_CSS = "overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0;height:18px;line-height:18px";

function el(tag, css, parent, className) {
  const node = document.createElement(tag);
  if (css) node.style.cssText = css;
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

/** The first author of the hover card's author line ("Yang, Z.; Jiang, B.; Xu, J. et al.": core/display.py
 * `author_text` joins the names with "; "). */
export function firstAuthor(text) {
  return String(text || "").split(";")[0].replace(/ et al\.$/, "").trim();
}

/** Indices 0..n-1 of `keys` in order (`dir` 1 ascending, -1 descending), empty keys (null, '', NaN) last either way,
 * ties in selection order. */
export function sortedOrder(keys, dir) {
  const order = Array.from({ length: keys.length }, (_, k) => k);
  const empty = (v) => v === null || v === undefined || v === "" || (typeof v === "number" && Number.isNaN(v));
  order.sort((a, b) => {
    const x = keys[a], y = keys[b], ex = empty(x), ey = empty(y);
    if (ex || ey) return ex === ey ? a - b : ex ? 1 : -1;
    if (x < y) return -dir;
    if (x > y) return dir;
    return a - b;
  });
  return order;
}

/** The list's element: a custom element, whose `connectedCallback` tells the list each time Streamlit puts it back
 * in the page (moved when a paper's panel opens above it: the browser then scrolls it back to the top, with no
 * event of its own). */
function box() {
  const name = "miread-list-box";
  if (!customElements.get(name)) {
    customElements.define(name, class extends HTMLElement {
      connectedCallback() { if (this.connected) this.connected(); }
    });
  }
  return name;
}

export default class SelectionList {
  constructor(parent, entry) {
    this.entry = entry;
    this.kept = entry.listState || (entry.listState = { key: null, dir: 1, top: 0, active: -1 });
    this.figures = {};
    this.rows = [];  // the selection listed (corpus rows)
    this.order = null;  // positions in `rows` in the sorted order (null: the selection's own order)
    this.keys = {};
    this.pool = [];
    this.root = el(box(), "display:block;font:13px sans-serif;color:#31333f;border:1px solid #e6e6e6;border-radius:8px;"
      + "background:#fff;display:none;outline:none;max-width:100%", parent, "miread-list");
    this.root.tabIndex = 0;
    this.root.setAttribute("role", "grid");
    this.body = el("div", "overflow:auto;position:relative", this.root, "miread-list-body");
    this.head = el("div", "position:sticky;top:0;z-index:1;background:#f7f7f9;display:flex;flex-wrap:wrap;"
      + "align-items:center;gap:2px 4px;padding:4px 6px;border-bottom:1px solid #e6e6e6", this.body, "miread-list-head");
    this.head.setAttribute("role", "row");
    el("span", "font-size:12px;color:#666;margin-right:2px", this.head).textContent = "Sort:";
    this.sorters = {};
    for (const [key, label] of COLUMNS) {
      const b = el("button", "font:12px sans-serif;color:#31333f;background:#fff;border:1px solid #d6d6d9;"
        + "border-radius:10px;padding:1px 7px;cursor:pointer;white-space:nowrap", this.head, `miread-sort miread-sort-${key}`);
      b.type = "button";
      b.setAttribute("role", "columnheader");
      b.title = `Sort the whole selection by ${label.toLowerCase()} (again: the other way)`;
      b.addEventListener("click", () => this.sortBy(key));
      this.sorters[key] = { b, label };
    }
    this.space = el("div", "position:relative", this.body, "miread-list-space");
    this.body.addEventListener("scroll", () => {
      this.kept.top = this.body.scrollTop;
      if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = null; this.draw(); });
    });
    this.root.connected = () => { this.restore(); this.draw(); };
    this.root.addEventListener("keydown", (e) => this.key(e));
    this.root.addEventListener("mouseleave", () => this.ring(null));
    this.showSorters();
  }

  /** The figures Python sends (by row) for the selection it knows. */
  setFigures(figures) {
    const next = figures && typeof figures === "object" ? figures : {};
    if (JSON.stringify(next) === JSON.stringify(this.figures)) return;
    this.figures = next;
    delete this.keys.figure;
    if (this.kept.key === "figure") this.order = null;
    this.update(true);
  }

  /** The list's place kept in the hub, taken again: at once, and whenever its element is laid out again (a new
   * element of the side column is mounted before it is shown, and Streamlit moves the element when a paper's panel
   * opens above it: either way the browser puts the scroll back at the top without a scroll event). */
  restore() {
    if (this.body.scrollTop !== this.kept.top) this.body.scrollTop = this.kept.top;
  }

  /** The cards' text came (after the list was drawn from a map without it): its keys and rows read again. */
  textCame() {
    this.keys = {};
    this.order = null;
    this.update(true);
  }

  /** The map's selection read again (a lasso, a kept selection applied, the cards' text come): drawn when it
   * changed, or when `force`d. */
  update(force = false) {
    const map = this.entry.map;
    const rows = (map && map.n && map.selection) || [];
    // the selection listed last in this hub (kept there: a list made again for a new element of the side column,
    // after a paper opened above it, keeps its sort, place and active row)
    const last = this.kept.rows || [];
    const changed = rows !== last && !(rows.length === last.length && rows.every((r, k) => r === last[k]));
    if (rows !== this.rows) { this.rows = rows; this.keys = {}; this.order = null; }
    if (changed) {
      this.kept.rows = rows;
      this.kept.active = -1;
      if (this.body.scrollTop) this.body.scrollTop = 0;
      this.kept.top = 0;
    }
    if (!changed && !force && this.drawn) return;
    this.drawn = true;
    const n = this.rows.length;
    this.root.style.display = n ? "block" : "none";
    this.root.dataset.count = String(n);
    this.root.setAttribute("aria-label", `${n.toLocaleString("en")} selected ${n === 1 ? "paper" : "papers"}`);
    this.root.setAttribute("aria-rowcount", String(n + 1));
    this.showFigure = Object.keys(this.figures).length > 0;
    this.row = LINE * (this.showFigure ? 3 : 2) + PAD;
    this.sorters.figure.b.style.display = this.showFigure ? "" : "none";
    if (this.kept.key && !this.order && n) this.order = sortedOrder(this.column(this.kept.key), this.kept.dir);
    this.space.style.height = `${n * this.row}px`;
    this.body.style.height = `${Math.min(MAX_HEIGHT, n * this.row) + this.head.offsetHeight}px`;
    if (!changed && this.kept.top) this.restore();
    for (const r of this.pool) r.key = null;  // every row's text read again (new text, new figures)
    this.draw();
  }

  /** The drawn point of corpus row `r` (undefined when the map does not draw it: a density overview's window). */
  local(r) {
    const map = this.entry.map;
    if (!map) return undefined;
    if (!map.rows) return r < map.n ? r : undefined;
    return map.toLocal([r])[0];
  }

  /** Corpus row `r`'s text: title, figure, year, journal, first author. */
  text(r) {
    const map = this.entry.map, i = this.local(r);
    const t = map && i !== undefined ? map.cardText(i) : { title: "", year: "", journal: "", author: "" };
    return { title: t.title, figure: this.figures[String(r)] || "", year: t.year, journal: t.journal,
      author: firstAuthor(t.author) };
  }

  /** A sort key of every listed paper (in selection order), made once per selection. */
  column(key) {
    if (this.keys[key]) return this.keys[key];
    const map = this.entry.map, out = new Array(this.rows.length);
    for (let k = 0; k < this.rows.length; k += 1) {
      const r = this.rows[k];
      if (key === "year") {
        const i = this.local(r);
        const y = map && map.years && i !== undefined ? map.years[i] : NaN;
        out[k] = Number.isFinite(y) ? y : (Number(this.text(r).year) || NaN);
      } else if (key === "figure") out[k] = this.figures[String(r)] || "";
      else if (key === "author") out[k] = this.text(r).author.toLowerCase();
      else out[k] = this.text(r)[key].toLowerCase();
    }
    this.keys[key] = out;
    return out;
  }

  sortBy(key) {
    this.kept.dir = this.kept.key === key ? -this.kept.dir : 1;
    this.kept.key = key;
    this.order = this.rows.length ? sortedOrder(this.column(key), this.kept.dir) : null;
    this.kept.active = -1;
    this.body.scrollTop = 0;
    this.kept.top = 0;
    this.showSorters();
    for (const r of this.pool) r.key = null;
    this.draw();
  }

  showSorters() {
    for (const [key, { b, label }] of Object.entries(this.sorters)) {
      const on = this.kept.key === key;
      b.textContent = on ? `${label} ${this.kept.dir > 0 ? "▲" : "▼"}` : label;
      b.setAttribute("aria-sort", on ? (this.kept.dir > 0 ? "ascending" : "descending") : "none");
    }
  }

  /** The corpus row at position `k` of the list as sorted. */
  rowAt(k) { return this.rows[this.order ? this.order[k] : k]; }

  /** The rows in view (and OVERSCAN around them) drawn into a pool of row elements. */
  draw() {
    const n = this.rows.length;
    const row = this.row || 2 * LINE + PAD, top = this.body.scrollTop, height = this.body.clientHeight || MAX_HEIGHT;
    const first = Math.max(0, Math.floor(top / row) - OVERSCAN);
    const last = Math.min(n, Math.ceil((top + height) / row) + OVERSCAN);
    while (this.pool.length < last - first) this.pool.push(this.makeRow());
    for (let p = 0; p < this.pool.length; p += 1) {
      const item = this.pool[p], k = first + p;
      if (k >= last) { item.node.style.display = "none"; item.key = null; continue; }
      const r = this.rowAt(k);
      item.node.style.display = "";
      item.node.style.top = `${k * row}px`;
      item.node.style.height = `${row}px`;
      item.node.setAttribute("aria-rowindex", String(k + 2));
      const active = k === this.kept.active;
      item.node.classList.toggle("miread-active", active);
      item.node.style.background = active ? "#e8efff" : k % 2 ? "#fafafa" : "#fff";
      item.k = k;
      if (item.key === r) continue;
      item.key = r;
      item.node.dataset.row = String(r);
      const t = this.text(r);
      for (const [key] of COLUMNS) item.cells[key].textContent = t[key];
      item.seps[0].textContent = t.year && (t.journal || t.author) ? " · " : "";
      item.seps[1].textContent = t.journal && t.author ? " · " : "";
      item.cells.figure.style.display = this.showFigure ? "" : "none";
      item.node.title = [t.title, [t.year, t.journal, t.author].filter((v) => v).join(" · "), t.figure]
        .filter((v) => v).join("\n");
    }
    this.root.dataset.drawn = String(Math.max(0, last - first));
  }

  makeRow() {
    const node = el("div", `position:absolute;left:0;right:0;box-sizing:border-box;padding:${PAD / 2}px 8px;`
      + "cursor:pointer;border-bottom:1px solid #f0f0f0", this.space, "miread-list-row");
    node.setAttribute("role", "row");
    const item = { node, cells: {}, seps: [], key: null, k: -1 };
    item.cells.title = el("div", `${LINE_CSS};font-weight:600`, node, "miread-cell-title");
    const line = el("div", `${LINE_CSS};font-size:12px;color:#555`, node);
    item.cells.year = el("span", "", line, "miread-cell-year");
    item.seps.push(el("span", "", line));
    item.cells.journal = el("span", "", line, "miread-cell-journal");
    item.seps.push(el("span", "", line));
    item.cells.author = el("span", "", line, "miread-cell-author");
    item.cells.figure = el("div", `${LINE_CSS};font-size:12px;color:#666;font-style:italic`, node, "miread-cell-figure");
    for (const cell of [item.cells.title, line, item.cells.figure]) cell.setAttribute("role", "gridcell");
    node.addEventListener("click", () => { if (item.key !== null) { this.kept.active = item.k; this.open(item.key); } });
    node.addEventListener("mouseenter", () => { if (item.key !== null) this.ring(item.key); });
    return item;
  }

  /** The paper of corpus row `r` opened as a click on its point opens it (side panel, star, pinned card). */
  open(r) {
    const map = this.entry.map;
    if (map && typeof map.openRow === "function") map.openRow(r);
    this.draw();
  }

  /** Corpus row `r`'s point ringed on the map, its card beside it (null: none). */
  ring(r) {
    const map = this.entry.map;
    if (!map) return;
    const i = r === null ? undefined : this.local(r);
    map.showLinked(i === undefined ? null : i);
  }

  /** The keyboard: arrows, Page Up/Down, Home and End move along the rows (the point ringed), Enter opens. */
  key(e) {
    const n = this.rows.length;
    if (!n || e.target !== this.root) return;
    const row = this.row, page = Math.max(1, Math.floor((this.body.clientHeight - this.head.offsetHeight) / row) - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -n, End: n };
    if (e.key === "Enter" || e.key === " ") {
      if (this.kept.active >= 0) this.open(this.rowAt(this.kept.active));
      e.preventDefault();
      return;
    }
    if (!(e.key in moves)) return;
    e.preventDefault();
    const k = Math.max(0, Math.min(n - 1, (this.kept.active < 0 ? -1 : this.kept.active) + moves[e.key]));
    this.kept.active = k;
    const top = k * row, view = this.body.clientHeight - this.head.offsetHeight;  // the sticky header covers the top
    if (top < this.body.scrollTop) this.body.scrollTop = top;
    else if (top + row > this.body.scrollTop + view) this.body.scrollTop = top + row - view;
    this.draw();
    this.ring(this.rowAt(k));
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.ring(null);
    this.root.remove();
  }
}
