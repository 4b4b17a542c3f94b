// The points drawn on the CPU (issue 42, BENCHMARKS §31w). In a browser without a GPU (a VM, a remote desktop, a
// locked-down laptop, headless Chromium) WebGL runs in software (SwiftShader, llvmpipe), where a frame's cost goes by
// the points drawn: 0.4–1.4 s a frame at 1,000,000 papers. A plain loop that writes each point's square into an
// ImageData is ~50× cheaper. In CPU mode regl-scatterplot keeps everything but the points' bodies (camera, pan and
// zoom, hover and click with its spatial index, lasso, the hovered point, a small selection's rings): build.mjs
// patches its frame to call `canvas.__mireadPoints` instead of drawPointBodies(), and this layer, a canvas under
// regl-scatterplot's (whose background is transparent), draws them in the same frame, on white, in the same colours,
// opacities, sizes and order (alpha blended over what is drawn before, as regl-scatterplot's blending does).

import { SELECTED, SELECTION_OUTLINE_LIMIT } from "./selection.js";

/** Points from which a software WebGL draws them on the CPU (auto mode): at 50,000 it pays already (pan 9.5 → 16
 * frames/s, a lasso's let go 1.25 → 0.33 s, BENCHMARKS §31w); fewer were not measured. */
export const CPU_FROM = 50000;
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|microsoft basic render/i;

/** Whether the WebGL context `gl` runs in software (its unmasked renderer's name, else its plain one). */
export function softwareGL(gl) {
  if (!gl) return false;
  try {
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    return SOFTWARE.test(name);
  } catch (e) { return false; }
}

/** The mode asked for: `?raster=cpu|gl|auto` in the page's address, else the map's meta (MIREAD_MAP_RASTER), else
 * auto. A hidden override for tests and benchmarks. */
export function askedMode(meta) {
  let asked = null;
  try { asked = new URLSearchParams(window.location.search).get("raster"); } catch (e) { asked = null; }
  asked = asked || (meta && meta.raster) || "auto";
  return ["cpu", "gl"].includes(asked) ? asked : "auto";
}

/** Whether `n` points are drawn on the CPU: asked so, or (auto) a software WebGL and at least CPU_FROM points. A
 * density overview (a background picture under one window's points) always keeps regl-scatterplot's drawing. */
export function drawsOnCpu(asked, n, overview, software) {
  if (overview) return false;
  if (asked !== "auto") return asked === "cpu";
  return software && n >= CPU_FROM;
}

/** "#rrggbb" (or an [r, g, b(, a)] of 0..1) as [r, g, b] in 0..255. */
export function rgbOf(colour) {
  if (Array.isArray(colour)) return colour.slice(0, 3).map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255));
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(String(colour));
  return m ? [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] : [31, 119, 180];
}

/** A value of a look's encoding (a number, or a list indexed by the weight as regl-scatterplot's continuous
 * encoding is: floor(w × (length − 1))), for weight class `k` of 0..1 in steps. */
function encoded(value, w) {
  if (!Array.isArray(value)) return Number(value);
  const k = Math.min(value.length - 1, Math.max(0, Math.floor(w * (value.length - 1))));
  return Number(value[k]);
}

export default class Raster {
  /** A CPU layer for `view` (index.js's MapView): its canvas goes right under the map's canvas, unused until on(). */
  constructor(view) {
    this.view = view;
    this.canvas = document.createElement("canvas");
    // last in the map (its first canvas stays regl-scatterplot's, which tests and tools look for), under the rest:
    // z-index −1 within the map, made a stacking context of its own (isolation), so above the map's background
    this.canvas.style.cssText = "position:absolute;inset:0;width:100%;height:100%;pointer-events:none;display:none;"
      + "z-index:-1";
    this.canvas.className = "miread-raster";
    view.wrap.style.isolation = "isolate";
    view.wrap.appendChild(this.canvas);
    this.active = false;
    this.draw = (info) => this.frame(info);
  }

  /** Draw the points here (true) or with regl-scatterplot (false); the next frame follows it. */
  set(on) {
    this.view.wrap.dataset.raster = on ? "cpu" : "gl";
    if (on === this.active) return;
    this.active = on;
    this.canvas.style.display = on ? "" : "none";
    if (on) this.view.canvas.__mireadPoints = this.draw; else delete this.view.canvas.__mireadPoints;
  }

  /** One frame's points, called by regl-scatterplot's frame (build.mjs) in place of its point bodies: `pointScale`
   * (its size factor at this zoom), `selected` (its selected points), `drawn` (whether it has points), `selectedSize` (a selected point's extra width), `antiAliasing`. Returns
   * whether the selection was drawn here (a selection too large for rings: in the lasso's ink, one pass). */
  frame({ pointScale, selected, drawn, selectedSize, antiAliasing }) {
    const started = performance.now();
    const view = this.view, c = this.canvas, W = view.canvas.width, H = view.canvas.height;
    if (c.width !== W || c.height !== H || !this.image) {
      c.width = W; c.height = H;
      this.image = c.getContext("2d").createImageData(Math.max(1, W), Math.max(1, H));
      this.pixels = new Uint32Array(this.image.data.buffer);
    }
    this.pixels.fill(0xffffffff);  // white (the map's background; regl-scatterplot's canvas over it is transparent)
    const look = view.looks || {};
    let ownSelection = false;
    if (drawn && view.n && W > 1 && H > 1) {
      const palette = Array.isArray(look.pointColor) && look.pointColor.length ? look.pointColor : ["#1f77b4"];
      const rgb = palette.map(rgbOf);
      const last = rgb.length - 1;
      const table = new Int32Array(256 * 3);  // colour per code
      for (let k = 0; k < 256; k += 1) {
        const [r, g, b] = rgb[Math.min(k, last)];
        table[3 * k] = r; table[3 * k + 1] = g; table[3 * k + 2] = b;
      }
      const hidden = new Uint8Array(256);
      for (const code of view.hidden) if (code >= 0 && code < 256) hidden[code] = 1;
      const byW = look.opacityBy === "valueB", sizeByW = look.sizeBy === "valueB";
      const opacity = look.opacity === undefined ? 1 : look.opacity;
      const size = look.pointSize === undefined ? 2 : look.pointSize;
      // weights are 0 or 1 (highlight, year window, Play): two classes, each with its alpha and stamp
      const alpha = [0, 1].map((w) => Math.round(Math.min(1, encoded(byW ? opacity : (Array.isArray(opacity)
        ? opacity[0] : opacity), w)) * 256));
      const sizes = [0, 1].map((w) => Math.max(0.5, encoded(sizeByW ? size : (Array.isArray(size) ? size[0] : size),
        w) * pointScale));
      const square = Boolean(view.performance);  // (regl-scatterplot's performance mode draws squares)
      const v = view.plot.get("cameraView");
      const aspect = W / H;
      // device pixel (top-left origin) of data (x, y): regl-scatterplot's projection (index.js's screen())
      const ax = (W / 2) * (v[0] / aspect), bx = (W / 2) * (v[4] / aspect), cx0 = (W / 2) * (v[12] / aspect + 1);
      const ay = -(H / 2) * v[1], by = -(H / 2) * v[5], cy0 = (H / 2) * (1 - v[13]);
      const xs = view.x, ys = view.y, codes = view.codes, weight = view.weight, n = view.n;
      const AA = antiAliasing > 0 ? antiAliasing : 0.5;  // regl-scatterplot's (1 in a PNG export)
      // point i, s device px wide, blended in colour r, g, b at alpha a (0..256). As WebGL draws a point sprite: the
      // pixels whose centres lie in its square, each at the coverage of regl-scatterplot's round point shader (a disc
      // of diameter s, its edge smoothed over AA px: linearstep(s + AA, s − AA, 2 × distance)); a square covers all.
      // A point 2 px wide covers its 2 × 2 pixels whole (the common case of a large map: a short path).
      const P = this.pixels;
      // pixel o blended with r, g, b at t (0..256), on the opaque white-based picture (little-endian RGBA words)
      const blend = (o, r, g, b, t) => {
        const q = P[o], dr = q & 255, dg = (q >>> 8) & 255, db = (q >>> 16) & 255;
        P[o] = 0xff000000 | ((db + (((b - db) * t) >> 8)) << 16) | ((dg + (((g - dg) * t) >> 8)) << 8)
          | (dr + (((r - dr) * t) >> 8));
      };
      const put = (i, s, r, g, b, a) => {
        const px = xs[i] * ax + ys[i] * bx + cx0, py = xs[i] * ay + ys[i] * by + cy0, h = s / 2;
        let x0 = Math.ceil(px - h - 0.5), y0 = Math.ceil(py - h - 0.5);
        let x1 = Math.floor(px + h - 0.5), y1 = Math.floor(py + h - 0.5);
        if (x0 >= W || y0 >= H || x1 < 0 || y1 < 0) return;
        const whole = square || s === 2;
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 >= W) x1 = W - 1;
        if (y1 >= H) y1 = H - 1;
        for (let y = y0; y <= y1; y += 1) {
          let o = y * W + x0;
          const ey = y + 0.5 - py;
          for (let x = x0; x <= x1; x += 1, o += 1) {
            let t = a;
            if (!whole) {
              const ex = x + 0.5 - px;
              const cover = (s + AA - 2 * Math.sqrt(ex * ex + ey * ey)) / (2 * AA);
              if (cover <= 0) continue;
              if (cover < 1) t = (a * cover) | 0;
            }
            blend(o, r, g, b, t);
          }
        }
      };
      // the common case of a large map, points 2 px wide (not zoomed in): each covers its 2 × 2 pixels whole
      const two = sizes[0] === 2 && sizes[1] === 2;
      for (let i = 0; i < n; i += 1) {
        const code = codes[i];
        if (hidden[code]) continue;
        const k = weight[i] >= 1 ? 1 : 0, r = table[3 * code], g = table[3 * code + 1], b = table[3 * code + 2];
        if (two) {
          const x0 = Math.ceil(xs[i] * ax + ys[i] * bx + cx0 - 1.5), y0 = Math.ceil(xs[i] * ay + ys[i] * by + cy0 - 1.5);
          if (x0 >= 0 && y0 >= 0 && x0 < W - 1 && y0 < H - 1) {
            const o = y0 * W + x0, t = alpha[k];
            blend(o, r, g, b, t); blend(o + 1, r, g, b, t); blend(o + W, r, g, b, t); blend(o + W + 1, r, g, b, t);
            continue;
          }
        }
        put(i, sizes[k], r, g, b, alpha[k]);
      }
      // a selection too large for rings (build.mjs draws it in one pass): its points' bodies in the lasso's ink,
      // here, over the rest (a smaller one keeps regl-scatterplot's rings, drawn over this layer)
      if (selected && selected.length > SELECTION_OUTLINE_LIMIT) {
        ownSelection = true;
        const [r, g, b] = rgbOf(SELECTED);
        const extra = selectedSize || 2 * (window.devicePixelRatio || 1);
        const sel = sizes.map((s) => s + extra);
        for (let j = 0; j < selected.length; j += 1) {
          const i = selected[j];
          if (i >= n || hidden[codes[i]]) continue;
          const k = weight[i] >= 1 ? 1 : 0;
          put(i, sel[k], r, g, b, 256);
        }
      }
    }
    const put = performance.now();
    c.getContext("2d").putImageData(this.image, 0, 0);
    view.wrap.dataset.rasterPutMs = (performance.now() - put).toFixed(1);
    this.lastMs = performance.now() - started;
    view.wrap.dataset.rasterMs = this.lastMs.toFixed(1);
    view.wrap.dataset.rasterFrames = String((Number(view.wrap.dataset.rasterFrames) || 0) + 1);
    return ownSelection;
  }

  destroy() {
    this.set(false);
    this.canvas.remove();
  }
}
