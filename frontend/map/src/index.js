// MIReAD Explorer's Domain map: a Streamlit components-v2 element drawing every paper with regl-scatterplot (WebGL).
// The heavy instance gets the points once (x, y in [-1, 1], the hover-card text, each paper's year); the per-action
// state (colours, legend, highlight bits, year window, star, lines, rings, zoom) comes from small "control"
// instances (ui/map/component.py) through a page-level registry, so positions are never sent twice. Text from data
// is only ever set with textContent or drawn with fillText: never parsed as HTML.
import { selectionColours } from "./selection.js";
import createScatterplot, { createRenderer } from "regl-scatterplot";
import { tableFromIPC } from "apache-arrow";
import ColourFollower from "./colour.js";
import clearedLayer from "./layer.js";
import Lasso from "./lasso.js";
import SelectionList from "./list.js";
import { buildIndex } from "./spatial.js";
import Pin from "./pin.js";
import Raster, { askedMode, drawsOnCpu, softwareGL } from "./raster.js";
import Touch from "./touch.js";

const GREY = "#c8c8c8";
const WORKER_INDEX = 100000;  // points from which the hover index is built in a worker (spatial.js)
const STAR = "#d62728";

/** The page-level registry: one entry per map key, shared by the heavy instance and its control instances. */
export function hub(key) {
  const all = (window.__mireadMaps = window.__mireadMaps || {});
  return (all[key] = all[key] || { map: null, state: null, listeners: {} });
}

/** A column of an Arrow table (what Streamlit sends for a DataFrame) or of a plain object of arrays (HTML export). */
function column(table, name) {
  if (!table) return null;
  if (typeof table.getChild === "function") {
    const col = table.getChild(name);
    return col ? col.toArray() : null;
  }
  return table[name] === undefined ? null : table[name];
}

/** A text column as sent, not decoded: an Arrow vector (its strings read one at a time, when a card shows them: a
 * million titles decoded up front cost seconds and a hundred MB of heap, BENCHMARKS §31m) or a plain list. */
function lazyColumn(table, name) {
  if (!table) return null;
  if (typeof table.getChild === "function") return table.getChild(name) || null;
  return table[name] === undefined ? null : table[name];
}

/** Value `i` of a lazy column ('' for none). */
export function cell(col, i) {
  if (!col) return "";
  const v = typeof col.get === "function" ? col.get(i) : col[i];
  return v === null || v === undefined ? "" : String(v);
}

/** The one column of a 1-D array Streamlit sent as an Arrow table, a typed array, or a plain list. */
/** Two byte arrays (codes, highlight bits; null for none) hold the same values. */
export function sameBytes(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** The rows whose bit is set in a bitmask (the first row in the top bit of the first byte), of `n` rows; null for
 * no bitmask. */
/** Whether two lists of rows are the same (a page's selection beside the drawn one: no string of 835,000 rows). */
export function sameRows(a, b) {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k += 1) if (a[k] !== b[k]) return false;
  return true;
}

/** Whether two lists of point indices hold the same indices (in any order). */
export function sameSet(a, b) {
  if (a.length !== b.length) return false;
  if (sameRows(a, b)) return true;
  const seen = new Set(a);
  for (const v of b) if (!seen.has(v)) return false;
  return true;
}

/** Whether numbers are in ascending order. */
export function ascending(values) {
  for (let k = 1; k < values.length; k += 1) if (values[k - 1] > values[k]) return false;
  return true;
}

export function rowsOfBits(bits, n) {
  if (!bits || !bits.length) return null;
  const rows = [];
  for (let byte = 0; byte < bits.length; byte++) {
    const b = bits[byte];
    if (!b) continue;
    for (let bit = 0; bit < 8; bit++) {
      const r = byte * 8 + bit;
      if (r < n && (b >> (7 - bit)) & 1) rows.push(r);
    }
  }
  return rows;
}

export function values(data) {
  if (data === null || data === undefined) return null;
  if (typeof data.getChild === "function") return data.getChild(data.schema.fields[0].name).toArray();
  return data;
}

function el(tag, css, parent) {
  const node = document.createElement(tag);
  if (css) node.style.cssText = css;
  if (parent) parent.appendChild(node);
  return node;
}

const BUTTON = "font:13px sans-serif;padding:3px 8px;border:1px solid #bbb;border-radius:6px;background:#fff;"
  + "cursor:pointer;color:#222";

class MapView {
  constructor(root, component, performance = false) {
    this.root = root;
    this.component = component;
    this.hidden = new Set();
    this.flight = null;
    this.selection = [];
    this.lassoing = false;
    const narrow = (root.host || root).clientWidth < 640;
    this.outer = el("div", "width:100%;font-family:sans-serif;user-select:none", root);
    this.outer.className = "miread-map-outer";
    this.tools = el("div", "display:flex;gap:4px;flex-wrap:wrap;margin-bottom:4px", this.outer);
    this.wrap = el("div", "position:relative;width:100%;height:" + (narrow ? "max(320px, calc(100vh - 260px))"
      : "max(420px, calc(100vh - 280px))") + ";border:1px solid #e6e6e6;border-radius:6px;overflow:hidden",
    this.outer);
    this.wrap.className = "miread-map";
    this.canvas = el("canvas", "position:absolute;inset:0;width:100%;height:100%", this.wrap);
    this.overlay = el("canvas", "position:absolute;inset:0;width:100%;height:100%;pointer-events:none", this.wrap);
    // the lasso or box being drawn: its own layer, so a mouse move redraws one path, not every paper (lasso.js)
    this.lassoLayer = el("canvas", "position:absolute;inset:0;width:100%;height:100%;pointer-events:none", this.wrap);
    this.lassoLayer.className = "miread-lasso";
    this.legend = el("div", "display:flex;flex-wrap:wrap;gap:2px 12px;font-size:12px;margin-top:4px;color:#222",
      this.outer);
    this.legend.className = "miread-legend";
    this.card = el("div", "position:absolute;display:none;pointer-events:none;z-index:4;max-width:320px;"
      + "background:#fff;border:1px solid #999;border-radius:6px;padding:6px 8px;font-size:12px;"
      + "box-shadow:0 2px 6px rgba(0,0,0,.2);color:#222", this.wrap);
    this.card.className = "miread-card";
    this.status = el("div", "position:absolute;bottom:4px;left:8px;font-size:11px;color:#555;z-index:3;"
      + "background:rgba(255,255,255,.7);padding:0 4px;pointer-events:none", this.wrap);
    this.modes = {};
    for (const [mode, label, title] of [["panZoom", "Pan", "Drag to pan, wheel to zoom"],
      ["lasso", "Lasso", "Drag to select papers freehand (or shift-drag in Pan)"],
      ["rectangle", "Box", "Drag a box to select papers"]]) {
      const b = this.button(label, title, () => this.setMode(mode));
      b.dataset.mode = mode;
      this.modes[mode] = b;
    }
    this.button("Whole map", "Back to the whole map", () => this.whole(true)).className = "miread-whole";
    this.playButton = this.button("▶ Play", "Play through the years", () => this.togglePlay());
    this.playButton.className = "miread-play";
    this.playButton.style.display = "none";
    this.button("PNG", "Download the map as a PNG picture", () => this.png()).className = "miread-png";
    // The map's own renderer, sized to the map: regl-scatterplot's default one is the size of the window, and each
    // frame clears, shades and copies all of it (in a GPU-less browser half of a frame's time went there).
    this.renderer = createRenderer({ canvas: document.createElement("canvas") });
    this.plot = createScatterplot({
      renderer: this.renderer, canvas: this.canvas, width: "auto", height: "auto", pointSize: 4, pointSizeSelected: 2,
      pointOutlineWidth: 2, lassoColor: [0.1, 0.1, 0.1, 1], backgroundColor: [1, 1, 1, 1],
      performanceMode: performance, deselectOnDblClick: false, deselectOnEscape: false, lassoInitiator: false,
    });
    // the points drawn on the CPU in a software WebGL (a large map) or when asked (raster.js): a layer under the canvas
    this.raster = new Raster(this);
    this.software = softwareGL(this.renderer.regl && this.renderer.regl._gl);
    // Escape clears the selection only with the mouse on the map: regl-scatterplot's own handler heard Escape
    // anywhere on the page, so closing a menu or a select box with it lost the papers just lassoed
    this.pointerOn = false;
    this.wrap.addEventListener("pointerenter", () => { this.pointerOn = true; });
    this.wrap.addEventListener("pointerleave", () => { this.pointerOn = false; });
    this.onEscape = (e) => {
      if (e.key === "Escape" && this.pointerOn && !this.lasso.drag) { this.plot.deselect(); this.pin.hide(); }
    };
    window.addEventListener("keyup", this.onEscape);
    // frames drawn (a mark for tests: one change, one frame; a run that changes nothing, none)
    this.plot.subscribe("draw", () => { this.wrap.dataset.frames = String((Number(this.wrap.dataset.frames) || 0) + 1); });
    this.plot.subscribe("select", ({ points }) => this.selected(points));
    this.plot.subscribe("deselect", () => this.deselected());
    this.plot.subscribe("lassoEnd", ({ coordinates }) => this.lassoEnded(coordinates));
    this.lasso = new Lasso(this);
    this.pin = new Pin(this);  // a clicked paper's card, at once, in the click's own task (pin.js)
    this.colours = new ColourFollower(this, () => hub(this.hubKey));  // the Colour by box, at once (colour.js)
    this.touch = new Touch(this, this.lasso);
    // A hover answered in the mouse move's own task: regl-scatterplot finds the point under the mouse in its window
    // "mousemove" handler but publishes "pointOver" with a setTimeout that waits for drawn frames (BENCHMARKS §31i);
    // this listener, added after its own, reads the hovered point at once. The events that follow repeat it.
    this.hovered = undefined;
    window.addEventListener("mousemove", () => this.hoverAt(this.plot.get("hoveredPoint")));
    this.plot.subscribe("pointOver", (i) => this.hoverAt(i));
    this.plot.subscribe("pointOut", () => this.hoverAt(undefined));
    // The camera is reported only once the map is drawn and its first state applied: the views regl-scatterplot
    // sets up before that are the whole map, and reporting one would clear a shared link's zoom before its flight.
    this.settled = false;
    this.plot.subscribe("view", (event) => {
      this.camera = event.view; this.paint();
      this.shownBox = this.bbox();  // what the user sees, in data space, for the next resize to keep
      if (this.settled && this.reportsZoom && Date.now() > (this.refitUntil || 0)) this.reportView();
    });
    this.canvas.addEventListener("mousemove", (e) => {
      const r = this.wrap.getBoundingClientRect();
      this.mouse = [e.clientX - r.left, e.clientY - r.top];
    });
    this.setMode("panZoom");
    this.fitRenderer();
    // the renderer and the overlay's bitmap follow the map's size
    this.resize = new ResizeObserver(() => {
      const box = this.shownBox;  // before the new size: the region the user saw
      if (this.fitRenderer() && box) this.keepInView(box);
      this.paint();
    });
    this.resize.observe(this.wrap);
  }

  /** The renderer's canvas and framebuffer: the map's size on the screen (at least 1 × 1 pixel); true when it changed. */
  fitRenderer() {
    const w = Math.max(1, this.wrap.clientWidth), h = Math.max(1, this.wrap.clientHeight);
    const size = `${w}x${h}@${window.devicePixelRatio}`;
    if (size === this.rendererSize) return false;
    this.rendererSize = size;
    this.renderer.resize(w, h);
    this.renderer.refresh();
    return true;
  }

  /** After a resize, the region the user saw (`box`: x0, x1, y0, y1 in data space) stays in view: a wide map made
   * narrow kept its camera and put the papers at its sides beyond its border. Not reported as the user's zoom. */
  keepInView(box) {
    const [x0, x1, y0, y1] = box;
    if (!(x1 > x0 && y1 > y0)) return;
    this.refitUntil = Date.now() + 400;  // Date: the constructor's "performance" is an option
    if (x0 <= -0.99 && x1 >= 0.99 && y0 <= -0.99 && y1 >= 0.99) { this.whole(false); return; }  // the whole map
    this.plot.zoomToArea({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, { transition: false,
      preventFilterReset: true });
  }

  button(label, title, onClick) {
    const b = el("button", BUTTON, this.tools);
    b.type = "button";
    b.textContent = label;
    b.title = title;
    b.addEventListener("click", onClick);
    return b;
  }

  setMode(mode) {
    this.mode = mode;
    this.plot.set(mode === "panZoom" ? { mouseMode: "panZoom", lassoType: "freeform" }
      : { mouseMode: "lasso", lassoType: mode === "rectangle" ? "rectangle" : "freeform" });
    for (const [name, b] of Object.entries(this.modes)) b.style.background = name === mode ? "#dde8ff" : "#fff";
    this.wrap.dataset.mode = mode;
  }

  /** New points (a corpus or a map): drawn once; the state (colours, highlight …) is applied over them. With
   * `drawn` false the points wait for the state that follows at once (mount): its draw is their first, so an open
   * is one frame and one upload of the points, not two (at 1M papers a frame is 1–2.5 s in a GPU-less browser). */
  async load(data, drawn = true) {
    const meta = data.meta || {};
    const points = data.points;
    const t0 = performance.now();  // the open's parts: a mark for benchmarks (wrap.dataset.openParts, BENCHMARKS §31m)
    this.key = meta.key;
    this.unit = meta.unit || [0, 0, 1];  // [cx, cy, half]: map coordinates = centre + unit * half
    this.rowsOfPoints = null;  // new positions: their rows are made again (pointRows)
    this.x = Float32Array.from(column(points, "x") || []);
    this.y = Float32Array.from(column(points, "y") || []);
    this.n = this.x.length;
    // A density overview (a map above the draw limit): the points are one window's papers, `row` their rows in the
    // corpus (what codes, the highlight, rings and selections speak of), drawn over the whole map's density.
    const over = meta.overview || null;
    this.rows = over ? Int32Array.from(column(points, "row") || []) : null;
    this.total = over ? Number(meta.total) || this.n : this.n;
    this.localOf = null;
    if (over) this.setDensity(values(data.density), over.size); else this.clearDensity();
    this.raster.set(drawsOnCpu(askedMode(meta), this.n, Boolean(over), this.software));
    this.text = { title: lazyColumn(points, "title"), author: lazyColumn(points, "author"),
      journal: lazyColumn(points, "journal"), year: lazyColumn(points, "year"), note: lazyColumn(points, "note"),
      yearnum: lazyColumn(points, "yearnum") };
    this.textKey = this.text.title ? this.key : null;  // the export and an overview's window bring their text along
    if (!this.textKey) this.takeText(hub(this.hubKey).text);  // else it comes after the page's state (or came)
    const year = column(points, "yearnum");
    this.years = year ? Float32Array.from(year, (v) => (v === null || v === undefined ? NaN : v)) : null;  // null: none
    this.codes = new Uint8Array(this.n);
    this.weight = new Float32Array(this.n).fill(1);
    this.index = null;
    // a large map's hover index: built in a worker while the state is awaited (a smaller one is built by
    // regl-scatterplot in its draw in tens of ms, less than a worker's start: at 50k the open was no sooner)
    this.indexReady = this.n >= WORKER_INDEX ? buildIndex(this.x, this.y) : null;
    this.pin.hide();
    if (this.hidden.size) {  // new points show every group: the filter of the last ones goes with their legend
      this.hidden.clear();
      this.plot.unfilter();
    }
    this.plot.set({ pointSize: this.n > 200000 ? 2 : this.n > 20000 ? 3 : this.n > 1000 ? 5 : 7 });
    this.lookKey = null;  // a new map: its look is set again with its first state
    this.pointKey = null;
    this.aim = null;
    this.wrap.dataset.ready = "0";
    const t1 = performance.now();
    this.opening = { bytes: data.bytes || 0, unpackMs: data.unpackMs || 0, columnsMs: t1 - t0, t1 };
    if (drawn) await this.redraw();
  }

  /** The new points' first draw is done: the marks tests and benchmarks wait for (openParts, ready, loads). */
  opened() {
    const { t1, ...parts } = this.opening;
    this.opening = null;
    clearTimeout(this.stateTimer);
    // the camera as drawn: one set before the points were (an open's fit or flight) made no "view" event (the frames
    // before the points draw nothing), so the view kept here, and the region a resize keeps, are read now
    if (this.aim) this.aimNow();  // (not seen: an aim is made before or during the draw)
    this.camera = this.plot.get("cameraView");
    this.shownBox = this.bbox();
    this.paint();
    const t2 = performance.now();
    this.wrap.dataset.openParts = JSON.stringify({ ...parts, drawMs: t2 - t1, readyAt: t2 });
    this.wrap.dataset.drawn = String(this.n);
    this.wrap.dataset.key = String(this.key);
    this.wrap.dataset.ready = "1";
    this.wrap.dataset.loads = String((Number(this.wrap.dataset.loads) || 0) + 1);
    this.showStatus();
  }

  /** The map's count: papers drawn, and how many of them are shown while the legend hides groups. */
  showStatus() {
    const drawn = this.rows
      ? `density of ${this.total.toLocaleString()} papers; ${this.n.toLocaleString()} in this view drawn`
      : `${this.n.toLocaleString()} papers drawn`;
    const shown = Number(this.wrap.dataset.shown || this.n), groups = this.hidden.size;
    this.status.textContent = groups ? `${drawn}; ${shown.toLocaleString()} shown (${groups} legend `
      + `${groups === 1 ? "group" : "groups"} hidden)` : drawn;
  }

  /** The density picture (size × size, uint8, top row first), white to dark blue: regl-scatterplot's background
   * image, drawn in the map's [-1, 1] frame under the points. The background stays opaque white, so a selected
   * point keeps its white inner ring (a transparent background made selections on an overview invisible), and the
   * PNG export holds the density too. */
  setDensity(grid, size) {
    const picture = document.createElement("canvas");
    picture.width = size; picture.height = size;
    const g = picture.getContext("2d");
    const image = g.createImageData(size, size);
    for (let k = 0; k < size * size; k += 1) {
      const v = grid && k < grid.length ? grid[k] : 0, t = v / 255, o = 4 * k;
      image.data[o] = v ? 222 - 214 * t : 255;
      image.data[o + 1] = v ? 235 - 187 * t : 255;
      image.data[o + 2] = v ? 247 - 140 * t : 255;
      image.data[o + 3] = 255;
    }
    g.putImageData(image, 0, 0);
    if (this.density) this.density.destroy();
    this.density = this.plot.get("regl").texture({ data: picture, min: "linear", mag: "linear" });
    this.plot.set({ backgroundImage: this.density });
    this.wrap.dataset.density = String(size);
  }

  /** A map drawn whole (no overview): no density under it. */
  clearDensity() {
    if (!this.density) return;
    this.plot.set({ backgroundImage: null });
    this.density.destroy();
    this.density = null;
    delete this.wrap.dataset.density;
  }

  /** The corpus rows of drawn points (identity unless a density overview draws one window). */
  globalRow(i) { return this.rows ? this.rows[i] : i; }

  /** Corpus rows as drawn indices; rows not drawn in this window are left out. */
  toLocal(rows) {
    if (!this.rows) return Array.from(rows);
    if (!this.localOf) { this.localOf = new Map(); this.rows.forEach((r, i) => this.localOf.set(r, i)); }
    const out = [];
    for (const r of rows) { const i = this.localOf.get(Number(r)); if (i !== undefined) out.push(i); }
    return out;
  }

  /** A code per corpus paper as a code per drawn point. */
  gather(codes) {
    if (this.rows && codes && codes.length === this.total) {
      const out = new Uint8Array(this.n);
      for (let i = 0; i < this.n; i += 1) out[i] = codes[this.rows[i]];
      return out;
    }
    return codes && codes.length === this.n ? Uint8Array.from(codes) : new Uint8Array(this.n);
  }

  /** Set the point look (colours, opacity, size) and draw the points in one frame: regl-scatterplot's set() asks
   * for a frame of its own on the next animation frame, so set() is awaited first and the draw that follows lands
   * in the same frame as its look; a look already set is not set again. */
  async render(look) {
    const key = JSON.stringify(look);
    if (key !== this.lookKey) {
      this.lookKey = key;
      this.looks = look;
      await this.plot.set({ ...look, ...selectionColours(this.n, look.pointColor) });  // a large map's ink
    }
    await this.redraw();
  }

  /** The points as regl-scatterplot's rows [x, y, code, weight]: one array of rows per map, its codes and weights
   * written in place before each draw. Given columns, the library makes a new array of n rows on every draw: at 1M
   * papers a million small arrays per colour, highlight or year step (BENCHMARKS §31m). */
  pointRows() {
    if (!this.rowsOfPoints || this.rowsOfPoints.length !== this.n) {
      this.rowsOfPoints = Array.from({ length: this.n }, (_, i) => [this.x[i], this.y[i], 0, 0]);
    }
    const rows = this.rowsOfPoints, z = this.codes, w = this.weight;
    for (let i = 0; i < this.n; i += 1) { const r = rows[i]; r[2] = z[i]; r[3] = w[i]; }
    return rows;
  }

  async redraw() {
    const pts = this.pointRows();
    const options = { zDataType: "categorical", wDataType: "continuous", preventFilterReset: true };
    this.drawing = true;  // from here a flight for new points sets the camera at once (aimAt)
    let started;
    try {
      if (!this.index && this.indexReady) {  // the new points' index, built in a worker since they came (spatial.js)
        const ready = this.indexReady;
        this.index = await ready;
        if (this.indexReady === ready) this.indexReady = null;
        this.wrap.dataset.index = this.index ? "worker" : "draw";
      }
      if (this.index) options.spatialIndex = this.index;
      if (this.opening && this.aim) this.aimNow();  // the open's fit or flight: drawn with the points' first frame
      started = performance.now();
      await this.plot.draw(pts, options);
    } finally { this.drawing = false; }
    this.drawMs = performance.now() - started;
    this.wrap.dataset.pointDraws = String((Number(this.wrap.dataset.pointDraws) || 0) + 1);  // points handed over
    if (!this.index) this.index = this.plot.get("spatialIndex");  // made by the first draw, kept for the next
    if (this.opening) this.opened();
    if (this.hidden.size) this.filter();
  }

  /** From now on the camera is reported: the map is drawn and its first state (with a shared link's flight) applied.
   * A load that finds no state yet waits for it, or a view reported before the flight would clear the link's zoom. */
  settle() {
    this.settled = true;
    this.wrap.dataset.settled = "1";
  }

  /** The per-action state from a control instance (small JSON plus a code per paper and a bitmask). */
  apply(state, force = false) {
    // a flight (a kept zoom, Find) that comes while the new points' first draw is under way goes with that draw: the
    // queue would make it a flight after it, every frame of its transition a frame of every point
    const s = (state && state.state) || {};
    if (this.opening && belongsTo(state, this.base || this.key)) this.aimFlight(s);
    return this.enqueue(() => this.applyNow(state, force));
  }

  /** A new flight to a zoom (a kept zoom, Find) in state `s`, for new points: made with their first draw. A flight
   * without a zoom keeps the camera, as after a draw (applyNow). */
  aimFlight(s) {
    if (s.flight === undefined || s.flight === this.flight || !s.zoom) return;
    this.flight = s.flight;
    this.aimAt({ box: s.zoom });
  }

  /** The camera for new points (a box in [-1, 1] space, or the whole map): set just before their first draw (or at
   * once if that draw is under way), without a transition, so the first frame is drawn there. */
  aimAt(aim) {
    this.aim = aim;
    if (this.drawing) this.aimNow();
  }

  aimNow() {
    const { box, whole } = this.aim;
    this.aim = null;
    const [x0, x1, y0, y1] = whole ? [-1, 1, -1, 1] : box;
    this.plot.zoomToArea({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, { transition: false,
      preventFilterReset: true });
  }

  /** Loads and applies run one after another: regl-scatterplot refuses a draw while another is under way, and a
   * state that came during a load would otherwise be lost with its flight. */
  enqueue(step) {
    this.queue = (this.queue || Promise.resolve()).then(step).catch((e) => {
      this.wrap.dataset.error = String(e);
    });
    return this.queue;
  }

  async applyNow(state, force, keepCamera = false) {
    if (!belongsTo(state, this.base || this.key)) return;  // another map's state (the corpus before): its own comes
    this.state = state;
    if (!this.n) return;
    const s = state.state || {};
    if (this.opening && this.waitsPage && !hasPage(hub(this.hubKey), this.base || this.key)) {
      // new points whose page state (colours) has not come: only another part (the events' flight) is here; the
      // points wait for the page's part, drawn once with it (a timer draws them if it never comes)
      this.aimFlight(s);
      return;
    }
    const started = performance.now();
    const codes = values(state.codes);
    const mask = values(state.mask);
    const before = this.legendKey;
    this.legendKey = JSON.stringify(s.legend || []);
    // a new legend hides nothing: the papers its predecessor hid are drawn again (regl-scatterplot keeps a filter
    // across draws, so they stayed hidden under a legend that showed none hidden)
    if (before !== this.legendKey && this.hidden.size) { this.hidden.clear(); this.filter(); }
    // a density overview's codes are its window's (s.window names it): never another window's points
    let newCodes = this.codes;
    if (!s.window) newCodes = this.gather(codes);
    else if (s.window === this.key && codes && codes.length === this.n) newCodes = Uint8Array.from(codes);
    let newMask = this.mask, newLocal = this.maskLocal;
    if (!s.window || s.window === this.key) {  // an overview's highlight bits are its window's, like its codes
      newMask = mask && mask.length ? mask : null;
      newLocal = Boolean(s.window);
    }
    // What is drawn already is not drawn again: a page run that confirms what the browser drew (a year window
    // followed, a coming back, a run that changed nothing on the map) costs no frame (a frame of 50,000 points
    // is ~80 ms in a GPU-less browser).
    this.drawLegend(s.legend || []);  // at once, before the frame: it waits for nothing drawn
    const flies = s.flight !== undefined && ((force && !keepCamera) || s.flight !== this.flight);
    if (flies && this.opening) {  // new points: their flight is made with their first draw (no transition, no frame)
      this.flight = s.flight;
      if (s.zoom) this.aimAt({ box: s.zoom }); else if (force) this.aimAt({ whole: true });
    }
    const pointKey = JSON.stringify([s.palette, s.years || null, s.play, s.grow]);
    const same = !force && pointKey === this.pointKey && sameBytes(newCodes, this.codes)
      && sameBytes(newMask, this.mask) && newLocal === this.maskLocal;
    this.pointKey = pointKey;
    if (!same) {
      this.codes = newCodes;
      this.mask = newMask;
      this.maskLocal = newLocal;
      this.window = s.years || null;
      // Play goes on through a run that leaves its years alone (a colour, a highlight, or a run that changed
      // nothing landing just after the click); a change of the years to play stops it.
      const playKey = JSON.stringify(s.play || null);
      if (playKey !== this.playKey || !s.play) {
        this.playing = false;
        clearTimeout(this.playTimer);
        this.playButton.textContent = "▶ Play";
      }
      this.playKey = playKey;
      this.play = s.play || null;
      this.playButton.style.display = this.play ? "" : "none";
      this.computeWeights(this.playing && this.playFrame ? this.playFrame : this.window);
      const palette = (s.palette && s.palette.length) ? s.palette : ["#1f77b4"];
      await this.render({ colorBy: "valueA", pointColor: palette, ...this.look(s.grow),
        ...(this.playing ? { opacityBy: "valueB", opacity: [0.08, 0.95] } : {}) });
    }
    this.followYears(s.yearsControl || null);
    if (s.colour !== undefined) this.colours.confirmed(s.colour, s.level);
    this.pin.follow(s.star);
    this.overlayState = { star: s.star || null, stars: s.stars || [], lines: s.lines || [], labels: s.labels || [],
      rings: this.toLocal(values(state.rings) || []) };
    this.paint();
    if (flies && this.flight !== s.flight) {
      this.flight = s.flight;
      if (s.zoom) this.zoomTo(s.zoom); else if (force) this.whole(false);
    }
    const select = Array.isArray(s.select) ? s.select : rowsOfBits(values(state.select), this.total);
    if (select && !sameRows(select, this.selection)) {
      this.selection = select.slice();
      this.plot.select(this.toLocal(select), { preventEvent: true });
      this.listChanged();
    }
    if (this.awaitsState) { this.awaitsState = false; this.settle(); }  // the first state after a load: now settled
    this.applyMs = performance.now() - started;
    this.wrap.dataset.applied = String((Number(this.wrap.dataset.applied) || 0) + 1);
    this.wrap.dataset.applyMs = this.applyMs.toFixed(1);
  }

  /** The page's Years slider (in the container keyed `key`), followed while it moves: its window of years is drawn
   * here at once, in the browser, and during a drag too, before the page's own run confirms it with the same
   * window. Streamlit's slider keeps each thumb's value in a range input (react-aria); a thumb that moves changes
   * the slider's attributes, which an observer hears. */
  followYears(key) {
    if (key === this.yearsKey && (!key || (this.yearsBox && this.yearsBox.isConnected))) return;
    if (this.yearsObserver) this.yearsObserver.disconnect();
    this.yearsKey = key;
    this.yearsBox = key ? document.querySelector(`.st-key-${CSS.escape(key)}`) : null;
    if (!this.yearsBox) return;
    this.yearsObserver = new MutationObserver(() => this.yearsMoved());
    this.yearsObserver.observe(this.yearsBox, { subtree: true, attributes: true, childList: true,
      characterData: true });
  }

  /** The window the Years slider shows now (null: every year), drawn if it is not the one drawn. */
  yearsMoved() {
    if (!this.years || this.playing || !this.yearsBox) return;
    const thumbs = this.yearsBox.querySelectorAll("input[type=range]");
    if (thumbs.length !== 2) return;
    const lo = Number(thumbs[0].value), hi = Number(thumbs[1].value);
    const min = Number(thumbs[0].min), max = Number(thumbs[1].max);
    if (![lo, hi, min, max].every(Number.isFinite)) return;
    const window = lo <= min && hi >= max ? null : [lo, hi];
    if (JSON.stringify(window) === JSON.stringify(this.window)) return;
    this.window = window;
    this.enqueue(async () => {
      if (JSON.stringify(window) !== JSON.stringify(this.window) || this.playing) return;  // moved on already
      this.computeWeights();
      const s = (this.state && this.state.state) || {};
      await this.render({ ...this.looks, ...this.look(Boolean(s.grow)) });
      // the page's run that confirms this window finds it drawn (applyNow's pointKey)
      this.pointKey = JSON.stringify([s.palette, window, s.play, s.grow]);
      this.wrap.dataset.followed = JSON.stringify(window);
    });
  }

  /** Opacity and size by the weights: the papers in front (weight 1) opaque and, with a highlight (`grow`), larger;
   * the others faded. */
  look(grow) {
    const faded = this.weight.some((w) => w < 1);
    const base = this.n > 200000 ? 2 : this.n > 20000 ? 3 : this.n > 1000 ? 5 : 7;
    return { opacityBy: faded ? "valueB" : null, opacity: faded ? [0.1, 0.95] : (this.n > 20000 ? 0.7 : 0.85),
      sizeBy: faded && grow ? "valueB" : null, pointSize: faded && grow ? [base, base + 4] : base };
  }

  computeWeights(window = this.window) {
    const w = this.weight;
    for (let i = 0; i < this.n; i += 1) {
      let on = 1;
      if (this.mask) {
        const r = this.rows && !this.maskLocal ? this.rows[i] : i;
        on = (this.mask[r >> 3] >> (7 - (r & 7))) & 1;
      }
      if (on && window && this.years) {
        const y = this.years[i];
        on = y >= window[0] && y <= window[1] ? 1 : 0;
      }
      w[i] = on;
    }
  }

  drawLegend(entries) {
    this.legend.replaceChildren();
    this.legend.style.display = entries.length ? "" : "none";
    for (const entry of entries) {
      const row = el("div", "display:flex;align-items:center;gap:5px;cursor:pointer;white-space:nowrap;"
        + "max-width:320px;min-width:0", this.legend);
      row.className = "miread-legend-entry";
      row.dataset.code = String(entry.code);
      const swatch = el("span", `display:inline-block;width:10px;height:10px;border-radius:50%;flex:none;`
        + `background:${/^#[0-9a-fA-F]{6}$/.test(entry.colour) ? entry.colour : GREY}`, row);
      swatch.className = "miread-swatch";
      // a long name ends in "…", its count stays in view; the tooltip names it in full
      const name = el("span", "overflow:hidden;text-overflow:ellipsis;min-width:0", row);
      name.textContent = entry.label;
      const count = el("span", "flex:none", row);
      count.className = "miread-legend-count";
      count.textContent = ` (${entry.count})`;
      row.title = `${entry.label} (${entry.count}). Click to hide or show this group.`;
      row.style.opacity = this.hidden.has(entry.code) ? "0.35" : "1";
      row.dataset.hidden = this.hidden.has(entry.code) ? "1" : "0";
      row.addEventListener("click", () => {
        if (this.hidden.has(entry.code)) this.hidden.delete(entry.code); else this.hidden.add(entry.code);
        row.style.opacity = this.hidden.has(entry.code) ? "0.35" : "1";
        row.dataset.hidden = this.hidden.has(entry.code) ? "1" : "0";
        this.filter();
      });
    }
  }

  filter() {
    if (!this.hidden.size) {
      this.plot.unfilter(); this.wrap.dataset.shown = String(this.n); this.showStatus(); return;
    }
    const keep = [];
    for (let i = 0; i < this.n; i += 1) if (!this.hidden.has(this.codes[i])) keep.push(i);
    this.plot.filter(keep, { preventEvent: true });
    this.wrap.dataset.shown = String(keep.length);
    this.showStatus();
  }

  /** A lasso's selection answered in the lasso's own task (lasso.js): regl-scatterplot publishes its "select" event
   * with a setTimeout that waits for drawn frames (at 50k papers 0.2-0.5 s in a GPU-less browser, §31ad), so the
   * list and the page's run waited for the selected points' frame. `before`: the selection before the lasso (none
   * changed: no event follows, nothing to answer). The event that follows with the same points is passed over. */
  answerNow(before) {
    const now = this.plot.get("selectedPoints");
    if (!now.length || (now.length === before.length && sameSet(now, before))) return;
    this.early = now.slice();
    this.selected(now, true);
  }

  selected(points, early = false) {
    if (this.pin.answered(points)) return;  // a click pin.js answered in its own task: its event passed over
    if (!early && this.early) {  // the lasso's selection answered already (answerNow): its event passed over
      const same = points.length === this.early.length && sameSet(points, this.early);
      this.early = null;
      if (same) return;
    }
    this.wrap.dataset.picked = String((Number(this.wrap.dataset.picked) || 0) + 1);  // drawn selected (a mark)
    const rows = this.rows ? Array.from(points, (i) => this.rows[i]) : Array.from(points);
    if (!ascending(rows)) rows.sort((a, b) => a - b);  // a lasso's come in order (inside.js): 835k sorted was 0.3 s
    if (this.lassoing || rows.length > 1) {
      this.selection = rows;
      this.listChanged();
      if (this.rows && this.lassoing) return;  // a density overview: the lasso's polygon follows (lassoEnded)
      this.lassoing = false;
      this.emit("events", "selected", rows);
    } else if (rows.length === 1) {
      const i = points[0];  // starred at once; Python's next state for the side column names the same paper
      if (this.overlayState) {
        this.overlayState.star = { x: this.x[i], y: this.y[i], row: rows[0],
          label: this.cardText(i).title };
        this.paint();
      }
      this.pin.show(i, rows[0]);  // its card at once; the side panel's run follows
      this.wrap.dataset.answered = String((Number(this.wrap.dataset.answered) || 0) + 1);
      this.emit("events", "clicked", rows[0]);
    }
  }

  /** Nothing selected, without telling the page (a new map: the page's selection is that map's own). */
  deselectAll() {
    this.selection = [];
    this.plot.deselect({ preventEvent: true });
    this.listChanged();
  }

  /** The side column's list of the selection (list.js) told the selection, or the cards' text, changed. */
  listChanged() {
    const list = hub(this.hubKey).list;
    if (list) list.update();
  }

  /** Corpus row `r` opened from the selection's list as a click on its point opens it: starred and its card pinned
   * at once, the side panel's run asked for with the same "clicked" event; the selection stays. */
  openRow(r) {
    const [i] = this.toLocal([r]);
    if (i !== undefined && i < this.n) {
      if (this.overlayState) {
        this.overlayState.star = { x: this.x[i], y: this.y[i], row: r, label: this.cardText(i).title };
        this.paint();
      }
      this.pin.show(i, r);
    }
    this.wrap.dataset.answered = String((Number(this.wrap.dataset.answered) || 0) + 1);
    this.emit("events", "clicked", r);
  }

  deselected() {
    this.pin.hide();
    if (this.rows && this.lassoing) { this.selection = []; return; }  // undrawn papers may be inside: lassoEnded
    if (this.selection.length) { this.selection = []; this.listChanged(); this.emit("events", "selected", []); }
  }

  /** A lasso or box on a density overview selects every paper inside it, the undrawn ones too: its polygon (in
   * the map's [-1, 1] frame, as the points) goes to Python, which finds them among all the corpus's papers. */
  lassoEnded(coordinates) {
    const overview = this.rows && this.lassoing;
    this.lassoing = false;  // also after a lasso that selected nothing: the next click is a click
    if (!overview) return;
    const flat = [];
    for (const [x, y] of coordinates || []) flat.push(Number(x.toFixed(6)), Number(y.toFixed(6)));
    this.lastLasso = flat;
    this.emit("events", "lasso", flat);
  }

  emit(role, name, value, persist = false) {
    // A page run may be replacing the listener's element right now: then try again for up to 10 s (the newest value
    // of each name wins), so a zoom or a click made during a run is not lost.
    // a mark for tests: the value's start (a lasso's 835,000 rows were written out whole to keep 200 characters)
    this.wrap.dataset[`last${name}`] = JSON.stringify(Array.isArray(value) ? value.slice(0, 60) : value).slice(0, 200);
    this.retries = this.retries || {};
    clearTimeout(this.retries[name]);
    const send = (tries) => {
      const listener = hub(this.hubKey).listeners[role];
      if (listener && listener.alive()) {
        if (persist) listener.setStateValue(name, value); else listener.setTriggerValue(name, value);
        return;
      }
      this.wrap.dataset.waited = String((Number(this.wrap.dataset.waited) || 0) + 1);
      if (tries < 40) this.retries[name] = setTimeout(() => send(tries + 1), 250);
    };
    send(0);
  }

  /** Show the paper under the mouse in the linked maps too (Compare: the same paper's place under the other model). */
  linkHover(i) {
    for (const key of this.links || []) {
      const peer = hub(key).map;
      if (peer && peer !== this) peer.showLinked(i);
    }
  }

  /** A paper hovered in a linked map: a ring and its hover card at its point here (null: hide them). */
  showLinked(i) {
    if (i === null || i === undefined || !(i >= 0 && i < this.n)) {
      this.linked = null;
      if (this.card.dataset.linked === "1") this.card.style.display = "none";
      this.wrap.dataset.linked = "";
    } else {
      this.linked = i;
      this.hover(i, true);
      this.wrap.dataset.linked = String(i);
    }
    this.paint();
  }

  /** The hovered point `i` (undefined: none) shown as a card, once per change. */
  hoverAt(i) {
    const some = i !== undefined && i !== null && i >= 0;
    if (some ? i === this.hovered : this.hovered === undefined) return;
    this.hovered = some ? i : undefined;
    if (!some) { this.card.style.display = "none"; this.linkHover(null); return; }
    if (this.lasso && this.lasso.drag) return;  // no card over a lasso being drawn (a hover heard before the press)
    if (this.pin.row === this.globalRow(i)) return;  // its card is pinned already
    this.hover(i); this.linkHover(i);
  }

  /** The hover card's text of a map (`{key, points}`, its own message after the page's state, BENCHMARKS §31u): kept
   * when it is this map's (a text that came before its points waits in the hub for `load`). */
  takeText(text) {
    if (!text || !text.points || !this.key || text.key !== this.key || this.textKey === this.key) return;
    const p = text.points;
    Object.assign(this.text, { title: lazyColumn(p, "title"), author: lazyColumn(p, "author"),
      journal: lazyColumn(p, "journal"), note: lazyColumn(p, "note") });
    this.textKey = this.key;
    this.wrap.dataset.text = String(this.key);  // a mark for tests and benchmarks: the cards have their text
    const list = hub(this.hubKey).list;
    if (list && this.selection.length) list.textCame();  // a list drawn before the text came: its titles now
    // a card shown before the text came (the mouse on a point as the map appeared) gets its text now
    if (this.card.style.display === "block" && this.cardAt !== undefined && this.cardAt < this.n) {
      this.hover(this.cardAt, this.card.dataset.linked === "1");
    }
  }

  /** Drawn point `i`'s card text, read now from the columns as sent: title, author, journal, year (a year text
   * column's, else the year number sent for the Years window), note. */
  cardText(i) {
    const t = this.text;
    let year = cell(t.year, i);
    if (!year && t.yearnum) {  // null (Arrow's missing, the export's null) or NaN: no year
      const v = typeof t.yearnum.get === "function" ? t.yearnum.get(i) : t.yearnum[i];
      if (v !== null && v !== undefined && Number.isFinite(Number(v))) year = String(Math.round(Number(v)));
    }
    return { title: cell(t.title, i), author: cell(t.author, i), journal: cell(t.journal, i), year,
      note: cell(t.note, i) };
  }

  hover(i, atPoint = false) {
    const t = this.cardText(i);
    this.cardAt = i;
    this.card.replaceChildren();
    const line = (text, css) => { if (text === null || text === undefined || text === "") return;
      el("div", css, this.card).textContent = String(text); };
    line(t.title, "font-weight:600;margin-bottom:2px");
    line([t.author, t.journal, t.year].filter((v) => v).join(" · "), "color:#444");
    const entry = ((this.state && this.state.state && this.state.state.legend) || [])
      .find((e) => e.code === this.codes[i]);
    if (entry && entry.label !== "other" && !(t.journal && entry.label === t.journal)) {
      line(entry.label, "color:#666;font-style:italic");
    }
    line(t.note, "color:#7a3b00;margin-top:2px");  // a page's own line (Compare: neighbours changed)
    this.card.dataset.row = String(this.globalRow(i));
    this.card.dataset.linked = atPoint ? "1" : "0";
    const [mx, my] = (!atPoint && this.mouse) || this.screen(this.x[i], this.y[i]);
    const w = this.wrap.clientWidth;
    this.card.style.left = `${Math.min(mx + 12, Math.max(0, w - 330))}px`;
    this.card.style.top = `${my + 12}px`;
    this.card.style.display = "block";
    const h = this.wrap.clientHeight, tall = this.card.offsetHeight;
    if (my + 12 + tall > h) this.card.style.top = `${Math.max(0, my - 12 - tall)}px`;  // above the point, not cut off
  }

  /** Screen position (CSS px in the wrapper) of a point in [-1, 1] data space, from the camera's view matrix. */
  screen(x, y) {
    const v = this.camera || this.plot.get("cameraView");
    const w = this.wrap.clientWidth, h = this.wrap.clientHeight;
    const aspect = w / h;
    const nx = (v[0] * x + v[4] * y + v[12]) / aspect, ny = v[1] * x + v[5] * y + v[13];
    return [(w * (nx + 1)) / 2, h * (0.5 - ny / 2)];
  }

  /** The data-space window on screen: [x0, x1, y0, y1] in [-1, 1] space. */
  bbox() {
    const v = this.camera || this.plot.get("cameraView");
    const w = this.wrap.clientWidth, h = this.wrap.clientHeight;
    const aspect = w / h;
    const inv = (sx, sy) => {
      const nx = (sx / w) * 2 - 1, ny = 1 - (sy / h) * 2;
      return [(nx * aspect - v[12]) / v[0], (ny - v[13]) / v[5]];
    };
    const a = inv(0, h), b = inv(w, 0);
    return [a[0], b[0], a[1], b[1]];
  }

  reportView() {
    clearTimeout(this.viewTimer);
    const flight = this.flight;  // the flight this view was made after (a flight landing meanwhile supersedes it)
    this.viewTimer = setTimeout(() => {
      if (this.quiet) { this.quiet = false; return; }
      const box = this.bbox();
      const whole = box[0] <= -0.99 && box[1] >= 0.99 && box[2] <= -0.99 && box[3] >= 0.99;
      this.emit("zoom", "zoom", this.zoomReport(whole ? "" : box.map((v) => v.toFixed(5)).join(","), flight), true);
    }, 300);
  }

  /** A window as reported to the page: "MAP|x0,x1,y0,y1|FLIGHT" ("MAP||FLIGHT" the whole map). The page keeps the
   * last report across runs, so it must say which map it was made on: another corpus's map must not take it as its
   * own. FLIGHT: the last flight (Find, a map switch) the view was made after: a report that reaches the page after
   * a newer flight was asked for (a pan just before Find, on a busy server) must not undo that flight. */
  zoomReport(box, flight = this.flight) {
    return `${this.base || this.key || ""}|${box}|${flight === undefined ? "" : flight}`;
  }

  zoomTo(box) {
    const [x0, x1, y0, y1] = box;
    this.plot.zoomToArea({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, { transition: true,
      transitionDuration: 350, preventFilterReset: true });
  }

  whole(report) {
    // new points not drawn yet (an open drawn once with its state): the fit is made just before their first draw, so
    // that frame shows it (made after it, it was a second frame of every point: > 1 s at 1M papers)
    if (this.opening) { this.aimAt({ whole: true }); return; }
    // the whole [-1, 1] square fits (zoomToOrigin shows y in [-1, 1] only: a tall map would cut off its sides)
    this.plot.zoomToArea({ x: -1, y: -1, width: 2, height: 2 }, { transition: report, transitionDuration: 300,
      preventFilterReset: true });
    if (report && this.reportsZoom) {
      this.quiet = true;
      const made = this.zoomReport("");  // made now: a flight asked for in the next 350 ms supersedes it
      setTimeout(() => this.emit("zoom", "zoom", made, true), 350);
    }
  }

  paint() {
    const w = this.wrap.clientWidth, h = this.wrap.clientHeight;
    const g = clearedLayer(this.overlay, w, h);
    const o = this.overlayState;
    if (!o || !this.n) return;
    g.lineWidth = 1;
    for (const [x0, y0, x1, y1, dashed] of o.lines) {
      const a = this.screen(x0, y0), b = this.screen(x1, y1);
      g.setLineDash(dashed ? [3, 3] : []);
      g.strokeStyle = "rgba(60,60,60,.6)";
      g.beginPath(); g.moveTo(a[0], a[1]); g.lineTo(b[0], b[1]); g.stroke();
    }
    g.setLineDash([]);
    g.strokeStyle = "#222";
    for (let k = 0; k < Math.min(o.rings.length, 20000); k += 1) {
      const r = o.rings[k];
      const [sx, sy] = this.screen(this.x[r], this.y[r]);
      g.beginPath(); g.arc(sx, sy, 6, 0, 2 * Math.PI); g.stroke();
    }
    if (this.linked !== null && this.linked !== undefined && this.linked < this.n) {
      const [sx, sy] = this.screen(this.x[this.linked], this.y[this.linked]);
      g.lineWidth = 3; g.strokeStyle = "#ff7f0e";
      g.beginPath(); g.arc(sx, sy, 11, 0, 2 * Math.PI); g.stroke();
      g.lineWidth = 1; g.strokeStyle = "#222";
      g.beginPath(); g.arc(sx, sy, 14, 0, 2 * Math.PI); g.stroke();
    }
    const zoom = this.camera ? Math.abs(this.camera[0]) : 1;
    g.textAlign = "center";
    g.textBaseline = "middle";
    const boxes = [];  // the names drawn so far: a name that would cover one goes below it (above, at the bottom)
    for (const label of o.labels) {
      if (label.level === "fine" && zoom < 2 && o.labels.some((l) => l.level === "coarse")) continue;
      if (label.level === "coarse" && zoom >= 2 && o.labels.some((l) => l.level === "fine")) continue;
      const [cx, cy] = this.screen(label.x, label.y);
      g.font = "bold 12px sans-serif";
      // a cluster near an edge keeps its whole label on the map (its centre on the map: one off it stays off)
      const half = g.measureText(String(label.text)).width / 2 + 4;
      const sx = cx < 0 || cx > w ? cx : Math.max(Math.min(cx, w - half), Math.min(half, w / 2));
      let sy = cy;
      const covers = (y) => boxes.some((b) => sx - half < b[2] && b[0] < sx + half && y - 8 < b[3] && b[1] < y + 8);
      for (let step = 1; step <= 8 && covers(sy); step += 1) sy = cy + (cy + 16 * step < h - 8 ? 16 : -16) * step;
      boxes.push([sx - half, sy - 7, sx + half, sy + 7]);
      g.lineWidth = 3; g.strokeStyle = "rgba(255,255,255,.9)";
      g.strokeText(String(label.text), sx, sy);
      g.fillStyle = "#222";
      g.fillText(String(label.text), sx, sy);
    }
    this.labelBoxes = boxes;
    const stars = o.star ? [...o.stars, o.star] : o.stars;
    for (const star of stars) {
      const [sx, sy] = this.screen(star.x, star.y);
      g.font = "24px sans-serif";
      g.lineWidth = 2; g.strokeStyle = "#222";
      g.strokeText("★", sx, sy);
      g.fillStyle = STAR;
      g.fillText("★", sx, sy);
    }
    this.wrap.dataset.stars = String(stars.length);
    this.pin.place();
  }

  togglePlay() {
    if (this.playing) { this.stopPlay(); return; }
    const p = this.play;
    if (!p || !p.years || !p.years.length) return;
    this.playing = true;
    this.playButton.textContent = "❚❚ Pause";  // U+275A: in DejaVu and system fonts; "⏸" drew a missing-glyph box
    let k = 0;
    const step = async () => {
      if (!this.playing) return;
      const year = p.years[k];
      const lo = p.width ? year - p.width + 1 : p.years[0];
      this.playFrame = [lo, year];
      this.computeWeights(this.playFrame);
      await this.render({ ...this.looks, opacityBy: "valueB", opacity: [0.08, 0.95] });
      this.status.textContent = p.width ? `${lo}–${year}` : `up to ${year}`;
      this.wrap.dataset.frame = String(year);
      k += 1;
      if (k >= p.years.length) { this.stopPlay(false); return; }
      this.playTimer = setTimeout(step, p.ms || 600);
    };
    step();
  }

  stopPlay(restore = true) {
    this.playing = false;
    this.playFrame = null;
    clearTimeout(this.playTimer);
    this.playButton.textContent = "▶ Play";
    // the page's state drawn again over the last frame's weights (forced: it is the state drawn before the play),
    // the camera where the user left it
    if (restore && this.state) this.enqueue(() => this.applyNow(this.state, true, true));
  }

  /** The legend as a picture to go under the PNG (swatch, name and count of each entry, a hidden group faded), so the
   * colours read outside the app; `width` in the picture's pixels, `scale` of them per CSS pixel. Names are drawn with
   * fillText (never HTML) and cut at 300 px. Null without a legend. */
  legendPicture(width, scale) {
    const entries = (this.state && this.state.state && this.state.state.legend) || [];
    if (!entries.length) return null;
    const c = document.createElement("canvas"), g = c.getContext("2d");
    const pad = 8, rowH = 18, room = width / scale, font = "12px sans-serif";
    g.font = font;
    const items = [];
    let x = pad, y = pad;
    for (const entry of entries) {
      const text = `${String(entry.label)} (${entry.count})`;
      const w = 16 + Math.min(g.measureText(text).width, 300) + 14;
      if (x + w > room - pad && x > pad) { x = pad; y += rowH; }
      items.push({ entry, text, x, y });
      x += w;
    }
    c.width = width; c.height = Math.ceil((y + rowH + pad) * scale);
    g.scale(scale, scale);
    g.fillStyle = "#fff"; g.fillRect(0, 0, room, c.height / scale);
    g.font = font; g.textBaseline = "middle";
    for (const { entry, text, x: at, y: top } of items) {
      g.globalAlpha = this.hidden.has(entry.code) ? 0.35 : 1;
      g.fillStyle = /^#[0-9a-fA-F]{6}$/.test(entry.colour) ? entry.colour : GREY;
      g.beginPath(); g.arc(at + 5, top + rowH / 2, 5, 0, 2 * Math.PI); g.fill();
      g.fillStyle = "#222";
      g.fillText(text, at + 16, top + rowH / 2, 300);
    }
    g.globalAlpha = 1;
    return c;
  }

  async png() {
    const image = await this.plot.export({ scale: 1, antiAliasing: 1, pixelAligned: false });
    const c = document.createElement("canvas");
    c.width = image.width; c.height = image.height;
    const key = this.legendPicture(image.width, image.width / Math.max(1, this.wrap.clientWidth));
    c.height = image.height + (key ? key.height : 0);  // (setting the size clears the canvas: set it first)
    const g = c.getContext("2d");
    // on white, as the map shows (regl-scatterplot's picture is transparent where no paper is: a viewer showed it
    // black, the labels unreadable)
    const drawn = document.createElement("canvas");
    drawn.width = image.width; drawn.height = image.height;
    drawn.getContext("2d").putImageData(image, 0, 0);
    g.fillStyle = "#fff";
    g.fillRect(0, 0, c.width, c.height);
    if (this.raster.active) g.drawImage(this.raster.canvas, 0, 0, image.width, image.height);  // the CPU's points
    g.drawImage(drawn, 0, 0);
    g.drawImage(this.overlay, 0, 0, image.width, image.height);
    if (key) g.drawImage(key, 0, image.height);
    this.wrap.dataset.pngSize = `${c.width}x${c.height}`;
    c.toBlob((blob) => {
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `${(this.state && this.state.state && this.state.state.name) || "map"}.png`;
      this.wrap.dataset.png = String(blob.size);
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    }, "image/png");
  }

  /** Test and bench helper: the points as shown, one canvas: the CPU's layer (when on) under regl-scatterplot's. */
  picture() {
    if (!this.raster.active) return this.canvas;
    const c = document.createElement("canvas");
    c.width = this.canvas.width; c.height = this.canvas.height;
    const g = c.getContext("2d");
    g.drawImage(this.raster.canvas, 0, 0);
    g.drawImage(this.canvas, 0, 0);
    return c;
  }

  /** Test and bench helpers: a row's screen position in page coordinates. */
  pageXY(row) {
    const r = this.wrap.getBoundingClientRect();
    const [sx, sy] = this.screen(this.x[row], this.y[row]);
    return [r.left + sx, r.top + sy];
  }

  destroy() {
    window.removeEventListener("keyup", this.onEscape);
    this.colours.destroy();
    this.stopPlay(false);
    this.lasso.destroy();
    this.touch.destroy();
    if (this.yearsObserver) this.yearsObserver.disconnect();
    this.resize.disconnect();
    this.plot.destroy();
    this.raster.destroy();
    this.renderer.destroy();
  }
}

/** The heavy instance's data as Python packs it (ui/map/packing.py): a 4-byte little-endian length, that many bytes
 * of JSON meta, then the points as one Arrow IPC stream. Sent as bytes, Streamlit serializes nothing again on a page
 * run; a map already drawn with the same key skips reading its points. */
export function unpack(bytes, drawnKey) {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const length = new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
  const meta = JSON.parse(new TextDecoder().decode(view.subarray(4, 4 + length)));
  const drawn = () => (typeof drawnKey === "function" ? drawnKey(meta) : drawnKey);
  if (meta.kept) {  // the meta alone (ui/map/component.py `_mount_once`): the points (or text) came before, or are asked for
    const known = meta.role === "text" ? hub(meta.hub || "map").text?.key : drawn();
    return { meta, kept: true, missing: known !== meta.key };
  }
  if (meta.role !== "text" && meta.key === drawn()) return { meta };
  const started = performance.now();
  const points = tableFromIPC(view.slice(4 + length));  // a copy: aligned for the float views
  return { meta, points, unpackMs: performance.now() - started, bytes: view.length };
}

/** Maps whose element left the page (the user opened another page), kept drawn for PARK_MS by hub: coming back
 * re-attaches the same drawn map instead of reading and drawing every point again (BENCHMARKS §31c). */
const PARK_MS = 10 * 60 * 1000;
const parked = new Map();

function park(view) {
  const old = parked.get(view.hubKey);
  if (old && old.view !== view) { clearTimeout(old.timer); old.view.destroy(); }
  view.stopPlay(false);
  view.outer.remove();
  view.card.style.display = "none";
  const timer = setTimeout(() => { if (parked.get(view.hubKey)?.view === view) parked.delete(view.hubKey); view.destroy(); },
    PARK_MS);
  parked.set(view.hubKey, { view, timer });
}

/** Whether a state (`{state: {map}}`) is for the map drawn under `key` (a state that names no map: the standalone
 * export's, or an older page's, is for any). */
function belongsTo(state, key) {
  const map = state && state.state && state.state.map;
  return !map || !key || map === key;
}

/** Whether the page's own part of the state (push_state: the colours) for the map drawn under `key` is in the hub
 * `entry`: a state made of the other parts only (the events' flight, star) has no colours to draw the points with. */
function hasPage(entry, key) {
  const page = entry.parts && entry.parts.page;
  return Boolean(page) && belongsTo(page, key);
}

/** How long new points wait for the page's state that their data says follows (meta.state) before they are drawn
 * without it (a page run that failed between the two). */
const STATE_WAIT_MS = 15000;

/** The parked map of this hub, taken back for `parentElement` when it drew the map with this key (its points,
 * camera and selection kept); a parked map of another key (another corpus, an overview's other window) is let go. */
function unpark(hubKey, key, parentElement) {
  const kept = parked.get(hubKey);
  if (!kept) return null;
  parked.delete(hubKey);
  clearTimeout(kept.timer);
  if (kept.view.key !== key) { kept.view.destroy(); return null; }
  kept.view.root = parentElement;
  parentElement.appendChild(kept.view.outer);
  return kept.view;
}

/** The selection's list (`role: list`) in the side column: one per element, kept across runs; it reads the hub's
 * map, which tells it of each new selection (list.js). */
function mountList(parentElement, data) {
  const entry = hub(data.meta.hub || "map");
  let list = parentElement.__mireadList;
  if (!list) list = parentElement.__mireadList = new SelectionList(parentElement, entry);
  entry.list = list;
  list.setFigures(data.figures);
  list.update();
  return () => {
    if (entry.list === list) entry.list = null;
    parentElement.__mireadList = null;
    list.destroy();
  };
}

/** The heavy instance: mounts the canvas once and keeps it; new `data` (another corpus or map) redraws. */
export default function mount(component) {
  const { parentElement } = component;
  let { data } = component;
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
    const mine = parentElement.__mireadMap;  // a map being loaded counts as drawn: its points are on their way
    data = unpack(data, (meta) => (mine ? mine.wanted || mine.key : parked.get(meta.hub || "map")?.view.key ?? null));
  }
  if (!data || !data.meta) return undefined;
  if (data.missing) {  // sent the meta alone, but this page lost what it names (its parked map let go): ask again,
    document.body.dataset.mapAsked = String((Number(document.body.dataset.mapAsked) || 0) + 1);  // (a mark for tests)
    component.setTriggerValue("missing", data.meta.key);  // the rerun sends it whole (never drawn from nothing)
    return undefined;
  }
  if (data.meta.role === "list") return mountList(parentElement, data);
  if (data.meta.role === "text") {
    if (data.kept) return undefined;  // the text this key names is here already  // the hover text of the hub's map, sent after its state (show_map, push_state)
    const entry = hub(data.meta.hub || "map");
    if (!entry.text || entry.text.key !== data.meta.key) entry.text = { key: data.meta.key, points: data.points };
    if (entry.map) entry.map.takeText(entry.text);
    return undefined;
  }
  const hubKey = data.meta.hub || "map";
  const entry = hub(hubKey);
  const performance = (data.meta.n || 0) > 2000000;  // squares, no blending: an init-only option
  let view = parentElement.__mireadMap;
  let reattached = false;
  if (!view && parked.has(hubKey)) {
    view = parentElement.__mireadMap = unpark(hubKey, data.meta.key, parentElement);
    reattached = Boolean(view);
  }
  if (view && view.performance !== performance) {
    view.destroy(); parentElement.replaceChildren(); view = parentElement.__mireadMap = null;
  }
  if (!view) {
    view = parentElement.__mireadMap = new MapView(parentElement, component, performance);
    view.performance = performance;
    view.hubKey = hubKey;
    view.wrap.dataset.hub = view.hubKey;
    view.outer.dataset.hub = view.hubKey;
  }
  view.links = Array.isArray(data.meta.link) ? data.meta.link : [];
  view.reportsZoom = data.meta.zoom !== false;  // Compare's maps have no zoom listener: their zoom stays here  // maps whose hover this one mirrors
  if (data.meta.height) view.wrap.style.height = String(data.meta.height);
  entry.map = view;
  view.component = component;
  if (data.state) entry.state = data.state;  // the standalone export brings its state along
  if (entry.state) view.state = entry.state;
  const known = !data.points && (view.key === data.meta.key || view.wanted === data.meta.key);  // no points sent
  if (view.key !== data.meta.key && !known) {
    view.wanted = data.meta.key;
    view.settled = false;
    view.awaitsState = false;
    const sameMap = Boolean(data.meta.base) && view.base === data.meta.base;  // an overview's new window: stay put
    view.base = data.meta.base || null;
    // the page's state follows the points (show_map's meta.state): they wait for it, drawn once with its colours
    // (the data of a warm open came before the state, and the points were drawn uncoloured, then again coloured)
    const waits = Boolean(data.meta.state);
    const mapKey = data.meta.base || data.meta.key;
    const ownState = () => (entry.state && belongsTo(entry.state, mapKey) && (!waits || hasPage(entry, mapKey))
      ? entry.state : null);
    view.waitsPage = waits;
    // a state already here is applied at once after the load: the points wait for it, drawn once with its colours
    view.loading = view.enqueue(() => view.load(data, !ownState() && !waits)).then(() => {
      const own = ownState();
      if (!own && view.opening && !waits) view.enqueue(() => view.redraw());  // (an export without a state)
      if (!own && view.opening && waits) {  // drawn without it if the page's state never comes
        clearTimeout(view.stateTimer);
        view.stateTimer = setTimeout(() => view.enqueue(() => (view.opening ? view.redraw() : undefined)),
          STATE_WAIT_MS);
      }
      if (!sameMap) view.deselectAll();  // another map's selection names other papers (its rows are not these)
      // the whole map unless its own state says otherwise (not the last corpus's camera), and a map taller than wide
      // (Compare's columns) would cut off its sides at the default view: fit the whole square
      if (!sameMap && (!own || view.wrap.clientHeight > view.wrap.clientWidth)) view.whole(false);
      if (own) return view.enqueue(() => view.applyNow(own, true, sameMap));
      view.awaitsState = true;  // its first state (and a shared link's flight) comes with the state instance
      return undefined;
    }).then(() => { if (!view.awaitsState) view.settle(); });
  }
  else if (reattached && entry.state) view.enqueue(() => view.applyNow(entry.state, false, true));
  return () => {
    if (entry.map === view) entry.map = null;
    parentElement.__mireadMap = null;
    if (view.key && !view.performance) park(view); else view.destroy();
  };
}
