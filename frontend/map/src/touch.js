// Fingers on the map (a phone or a tablet). regl-scatterplot hears only the mouse: a finger could tap a paper (the
// browser turns a tap into a click) but not pan, zoom or draw a lasso. Here one finger pans in Pan mode and draws the
// lasso or box in Lasso and Box modes (the same path as the mouse's, lasso.js), and two fingers pan and pinch-zoom
// in every mode. The camera is moved through regl-scatterplot's own `view`, so its view events (the zoom kept
// in the URL, the labels and stars over the map) follow as they do for the mouse.

const TAP = 6;  // CSS px: a finger that moves less than this is a tap, left to the browser's click
const MIN_ZOOM = 0.25, MAX_ZOOM = 5000;  // how far a pinch may zoom out and in (scale of the whole map: 1)

export default class Touch {
  /** `view`: the MapView (wrap, canvas, plot, mode, camera); `lasso`: its Lasso. */
  constructor(view, lasso) {
    this.view = view;
    this.lasso = lasso;
    this.fingers = new Map();  // pointerId → [clientX, clientY]
    this.gesture = null;
    this.onDown = (e) => this.down(e);
    this.onMove = (e) => this.move(e);
    this.onUp = (e) => this.up(e);
    // the browser neither scrolls nor zooms the page for a finger on the map: the map takes it (as Plotly's did)
    view.canvas.style.touchAction = "none";
    view.wrap.addEventListener("pointerdown", this.onDown, true);
  }

  down(e) {
    if (e.pointerType !== "touch" || e.target !== this.view.canvas || !this.view.n) return;
    this.fingers.set(e.pointerId, [e.clientX, e.clientY]);
    if (this.fingers.size === 1) {
      window.addEventListener("pointermove", this.onMove, true);
      window.addEventListener("pointerup", this.onUp, true);
      window.addEventListener("pointercancel", this.onUp, true);
    }
    this.restart();
  }

  /** The gesture for the fingers down now: a path or a pan for one, a pinch for two (a path half drawn is dropped). */
  restart() {
    const view = this.view;
    const points = [...this.fingers.values()];
    if (this.gesture && this.gesture.kind === "path") this.lasso.abort();
    if (points.length === 1) {
      const [x, y] = points[0];
      if (view.mode !== "panZoom") {
        this.gesture = this.lasso.begin(view.mode, x, y) ? { kind: "path" } : null;
      } else {
        this.gesture = { kind: "pan", from: [x, y], view: this.cameraView(), moved: 0 };
      }
    } else if (points.length >= 2) {
      const [a, b] = points;
      this.gesture = { kind: "pinch", centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
        spread: Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1])), view: this.cameraView(), moved: TAP };
    } else {
      this.gesture = null;
    }
    view.wrap.dataset.gesture = this.gesture ? this.gesture.kind : "";
  }

  move(e) {
    if (!this.fingers.has(e.pointerId)) return;
    e.stopPropagation();
    this.fingers.set(e.pointerId, [e.clientX, e.clientY]);
    const g = this.gesture;
    if (!g) return;
    if (g.kind === "path") { this.lasso.extend(e.clientX, e.clientY); return; }
    const points = [...this.fingers.values()];
    if (g.kind === "pan") {
      const [x, y] = points[0];
      g.moved = Math.max(g.moved, Math.hypot(x - g.from[0], y - g.from[1]));
      if (g.moved < TAP) return;  // still a tap
      this.setView(g.view, x - g.from[0], y - g.from[1], 1, g.from);
    } else if (points.length >= 2) {
      const [a, b] = points;
      const centre = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const spread = Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1]));
      this.setView(g.view, centre[0] - g.centre[0], centre[1] - g.centre[1], spread / g.spread, g.centre);
    }
  }

  up(e) {
    if (!this.fingers.has(e.pointerId)) return;
    e.stopPropagation();
    this.fingers.delete(e.pointerId);
    const g = this.gesture;
    if (g && g.kind === "path" && !this.fingers.size) {
      this.gesture = null;
      if (e.type === "pointercancel") this.lasso.abort(); else this.lasso.finish();
    } else if (this.fingers.size) {
      this.restart();  // a pinch that lost a finger goes on as a pan from where that finger is
      if (this.gesture && this.gesture.kind === "pan") this.gesture.moved = TAP;
    } else {
      this.gesture = null;
    }
    if (!this.fingers.size) {
      window.removeEventListener("pointermove", this.onMove, true);
      window.removeEventListener("pointerup", this.onUp, true);
      window.removeEventListener("pointercancel", this.onUp, true);
      this.view.wrap.dataset.gesture = "";
    }
  }

  cameraView() {
    return Float32Array.from(this.view.camera || this.view.plot.get("cameraView"));
  }

  /** The camera of `start` moved by (dx, dy) CSS px and scaled by `factor` about the page point `about`. The view
   * matrix maps a point of the map's [-1, 1] frame to the camera's frame (x × aspect); the screen's CSS px map to
   * that frame by 2 / height on both axes. */
  setView(start, dx, dy, factor, about) {
    const wrap = this.view.wrap.getBoundingClientRect();
    const w = this.view.wrap.clientWidth, h = this.view.wrap.clientHeight, aspect = w / h;
    const cx = (((about[0] - wrap.left) / w) * 2 - 1) * aspect, cy = 1 - ((about[1] - wrap.top) / h) * 2;
    const zoom = Math.hypot(start[0], start[1]);  // the map's scale now (1: the whole map at the default view)
    factor = Math.min(Math.max(factor, MIN_ZOOM / zoom), MAX_ZOOM / zoom);
    const v = Float32Array.from(start);
    for (const k of [0, 1, 4, 5]) v[k] = start[k] * factor;
    v[12] = cx + (start[12] - cx) * factor + (dx / w) * 2 * aspect;
    v[13] = cy + (start[13] - cy) * factor - (dy / h) * 2;
    // `view`, not `set({cameraView})`: set asks for its frame in a later animation frame, and the library's frame
    // that comes first takes the camera's change without drawing, so the view event was never published: the map
    // drew the pinch, but its overlay, its zoom report and the next gesture kept the old camera (seen in CI)
    this.view.plot.view(v);
    this.view.wrap.dataset.touchViews = String((Number(this.view.wrap.dataset.touchViews) || 0) + 1);
  }

  destroy() {
    this.view.wrap.removeEventListener("pointerdown", this.onDown, true);
    window.removeEventListener("pointermove", this.onMove, true);
    window.removeEventListener("pointerup", this.onUp, true);
    window.removeEventListener("pointercancel", this.onUp, true);
  }
}
