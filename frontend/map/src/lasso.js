// The map's lasso and box, drawn on a 2-D layer of their own. regl-scatterplot's lasso asks for a frame of every
// point on each mouse move (in a GPU-less browser ~80 ms at 50,000 papers, ~1 s at 1,000,000: the line lagged the
// mouse by seconds); here a move redraws one path, and the papers are drawn once, selected, when the mouse is let go
// (the points inside found by inside.js with regl-scatterplot's own rule, then its select, so its events and
// selection are the ones its own lasso gives). regl-scatterplot still hears the mouse going down and up (its click and state stay
// right); only its handlers of the moves in between are kept out.

import clearedLayer from "./layer.js";
import pointsInside from "./inside.js";

const MIN_STEP = 2;  // CSS px between two kept points of a freehand path
const CLICK = 3;  // a press that moves less than this is a click (regl-scatterplot's own lassoMinDist)

const TOLERANCE = 1;  // CSS px: a freehand path is simplified to within a pixel of where it was drawn

/** A path with the points that lie within `tolerance` of the line through their neighbours left out (Ramer–Douglas–
 * Peucker). regl-scatterplot tests every paper in the path's box against every edge: a 3 s lasso kept ~180 points
 * (one every 2 px), and on a 1M map the test took ~2 s; a circle of 200 px radius needs ~30 within a pixel. */
export function simplify(path, tolerance) {
  if (path.length <= 3) return path;
  const keep = new Uint8Array(path.length);
  keep[0] = 1; keep[path.length - 1] = 1;
  const stack = [[0, path.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop();
    const [ax, ay] = path[first], [bx, by] = path[last];
    const dx = bx - ax, dy = by - ay, length = Math.hypot(dx, dy);
    let far = -1, farthest = tolerance;
    for (let k = first + 1; k < last; k += 1) {
      const [px, py] = path[k];
      const distance = length ? Math.abs(dy * px - dx * py + bx * ay - by * ax) / length : Math.hypot(px - ax, py - ay);
      if (distance > farthest) { farthest = distance; far = k; }
    }
    if (far >= 0) { keep[far] = 1; stack.push([first, far], [far, last]); }
  }
  const out = path.filter((_, k) => keep[k]);
  return out.length >= 3 ? out : path;
}

export default class Lasso {
  /** `view`: the MapView (its wrap, canvas, lassoLayer, plot, camera, mode). */
  constructor(view) {
    this.view = view;
    this.drag = null;
    this.swallowClick = false;
    this.onDown = (e) => this.down(e);
    this.onMove = (e) => this.move(e);
    this.onUp = (e) => this.up(e);
    this.onKey = (e) => { if (e.key === "Escape" && this.drag && !this.drag.cancelled) this.cancel(); };
    this.onClick = (e) => {
      if (this.swallowClick) { this.swallowClick = false; e.stopPropagation(); }  // the lasso's own end, not a click
    };
    view.wrap.addEventListener("mousedown", this.onDown, true);
    view.wrap.addEventListener("click", this.onClick, true);
  }

  /** A press on the map in Lasso or Box mode (or with shift in Pan): a path starts. */
  down(e) {
    this.swallowClick = false;
    const view = this.view;
    if (e.button !== 0 || e.target !== view.canvas || this.drag) return;
    const mode = view.mode === "panZoom" ? (e.shiftKey ? "lasso" : null) : view.mode;
    if (!mode || !this.begin(mode, e.clientX, e.clientY)) return;
    window.addEventListener("mousemove", this.onMove, true);
    window.addEventListener("mouseup", this.onUp, true);
    window.addEventListener("keydown", this.onKey, true);
  }

  /** A path of `mode` ("lasso" or "rectangle") starts at a point of the page (a mouse's or a finger's). */
  begin(mode, clientX, clientY) {
    if (!this.view.n || this.drag) return false;
    const box = this.view.wrap.getBoundingClientRect();
    const start = [clientX - box.left, clientY - box.top];
    this.drag = { mode, box, start, last: start, path: [start], frame: 0, moved: 0 };
    this.view.wrap.dataset.lassoMoves = "0";
    this.view.card.style.display = "none";  // a hover card from before the press would stand over the path
    return true;
  }

  /** A move while pressed: kept out of regl-scatterplot (its pan, hover and lasso would each draw every point). */
  move(e) {
    if (!this.drag) return;
    e.stopPropagation();
    this.extend(e.clientX, e.clientY);
  }

  /** The path goes on to a point of the page; the layer is drawn again on the next animation frame. */
  extend(clientX, clientY) {
    const d = this.drag;
    if (!d || d.cancelled) return;
    const p = [clientX - d.box.left, clientY - d.box.top];
    d.moved = Math.max(d.moved, Math.hypot(p[0] - d.start[0], p[1] - d.start[1]));
    d.last = p;
    const q = d.path[d.path.length - 1];
    if (d.mode !== "rectangle" && Math.hypot(p[0] - q[0], p[1] - q[1]) >= MIN_STEP) d.path.push(p);
    this.view.wrap.dataset.lassoMoves = String((Number(this.view.wrap.dataset.lassoMoves) || 0) + 1);
    if (!d.frame) d.frame = requestAnimationFrame(() => { d.frame = 0; this.paint(this.shape()); });
  }

  /** The polygon in CSS px of the map: the freehand path, or the box's four corners. */
  shape() {
    const d = this.drag;
    if (d.mode !== "rectangle") return d.path.length && d.path[d.path.length - 1] !== d.last
      ? [...d.path, d.last] : d.path;
    const [x0, y0] = d.start, [x1, y1] = d.last;
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  }

  /** Let go: the papers inside are selected (one frame), unless the press was a click. */
  up(e) {
    if (!this.drag) return;
    this.finish({ merge: e.metaKey, remove: e.altKey });
    window.removeEventListener("mousemove", this.onMove, true);
    window.removeEventListener("mouseup", this.onUp, true);
    window.removeEventListener("keydown", this.onKey, true);
  }

  /** The path ends: the papers inside it are selected and drawn once. False when nothing was drawn (a press that
   * moved less than a click's slack, a path dropped by Escape): then a click is left to regl-scatterplot. */
  finish({ merge = false, remove = false } = {}) {
    const d = this.drag;
    if (!d) return false;
    const polygon = this.shape();
    this.stop();
    if (d.cancelled) { this.swallowClick = true; return false; }
    if (d.moved < CLICK || polygon.length < 3) return false;  // a click: regl-scatterplot's own click handler picks
    this.swallowClick = true;
    const view = this.view;
    view.lassoing = true;
    view.wrap.dataset.lassos = String((Number(view.wrap.dataset.lassos) || 0) + 1);
    const simple = d.mode === "rectangle" ? polygon : simplify(polygon, TOLERANCE);
    view.wrap.dataset.lassoVertices = String(simple.length);
    const inMap = simple.map(([sx, sy]) => this.toMap(sx, sy));  // the points' [-1, 1] frame
    const closed = [...inMap, inMap[0]].flat();
    const inside = pointsInside(view.x, view.y, simple, closed, view.camera || view.plot.get("cameraView"),
      view.wrap.clientWidth, view.wrap.clientHeight);
    if (!inside) { view.plot.lassoSelect(inMap, { isGl: true, merge, remove }); return true; }
    const before = view.plot.get("selectedPoints").slice();
    view.plot.select(inside, { merge, remove });  // regl-scatterplot's select event: MapView.selected
    view.answerNow(before);  // ... answered now, before that event's frames (the list and the page's run)
    view.lassoEnded(inMap);  // what its lassoSelect's lassoEnd event did (a density overview's polygon to Python)
    return true;
  }

  /** Escape: the path is dropped, nothing is selected, and what was selected stays. The moves until the mouse is
   * let go are still kept from regl-scatterplot (it heard the press: it would start its own lasso), and so is
   * Escape's keyup (regl-scatterplot deselects on it). */
  cancel() {
    const d = this.drag;
    d.cancelled = true;
    if (d.frame) { cancelAnimationFrame(d.frame); d.frame = 0; }
    this.paint(null);
    const keyUp = (e) => {
      if (e.key !== "Escape") return;
      e.stopPropagation();
      window.removeEventListener("keyup", keyUp, true);
    };
    window.addEventListener("keyup", keyUp, true);
  }

  /** The path is dropped (a second finger came: the gesture is a pinch after all), nothing selected. */
  abort() {
    this.stop();
  }

  stop() {
    const d = this.drag;
    this.drag = null;
    if (d && d.frame) cancelAnimationFrame(d.frame);
    this.paint(null);
  }

  /** A point in CSS px of the map as a point of the map's [-1, 1] frame (the inverse of MapView.screen). */
  toMap(sx, sy) {
    const view = this.view;
    const v = view.camera || view.plot.get("cameraView");
    const w = view.wrap.clientWidth, h = view.wrap.clientHeight;
    const nx = ((sx / w) * 2 - 1) * (w / h), ny = 1 - (sy / h) * 2;
    const a = v[0], b = v[4], c = v[1], dd = v[5], det = a * dd - b * c || 1;
    const px = nx - v[12], py = ny - v[13];
    return [(dd * px - b * py) / det, (a * py - c * px) / det];
  }

  /** The path drawn on the lasso layer (null: cleared). */
  paint(polygon) {
    const g = clearedLayer(this.view.lassoLayer, this.view.wrap.clientWidth, this.view.wrap.clientHeight);
    if (!polygon || polygon.length < 2) return;
    g.beginPath();
    g.moveTo(polygon[0][0], polygon[0][1]);
    for (let k = 1; k < polygon.length; k += 1) g.lineTo(polygon[k][0], polygon[k][1]);
    g.closePath();
    g.fillStyle = "rgba(30,30,30,.07)";
    g.fill();
    g.lineWidth = 1.5;
    g.strokeStyle = "#1a1a1a";
    g.stroke();
  }

  destroy() {
    this.stop();
    window.removeEventListener("mousemove", this.onMove, true);
    window.removeEventListener("mouseup", this.onUp, true);
    window.removeEventListener("keydown", this.onKey, true);
    this.view.wrap.removeEventListener("mousedown", this.onDown, true);
    this.view.wrap.removeEventListener("click", this.onClick, true);
  }
}
