// The drawn points inside a lasso or box, found in one pass over the points' typed arrays. regl-scatterplot's
// lassoSelect tests every point in the polygon's box against every edge (its kd-tree's range, then a winding-number
// test per point): at 1,000,000 papers a lasso over 830,000 took 1.1–1.4 s (BENCHMARKS §31r). Here the polygon is
// filled on a 2-D canvas at the screen's pixels: a point on a pixel wholly inside is in, wholly outside is out, and
// only a point within 2 px of the line is tested exactly, with regl-scatterplot's own rule (non-zero winding, the same
// polygon in the points' [-1, 1] frame), so the papers selected are the ones lassoSelect selects.

const EDGE = 4;
const MAX_PIXELS = 16e6;  // the canvases' size at most (two of w × h × 4 bytes)  // CSS px: the band along the line where a point is tested exactly (the fill's antialiased pixels)

/** The twice-signed area test of regl-scatterplot (positive: p left of a → b). */
function cross(x1, y1, x2, y2, px, py) {
  return (x2 - x1) * (py - y1) - (px - x1) * (y2 - y1);
}

/** Non-zero winding: regl-scatterplot's isPointInPolygon over a flat closed polygon [x0, y0, x1, y1, …]. */
export function windingInside(flat, px, py) {
  let winding = 0;
  for (let i = 0, j = flat.length - 2; i < flat.length; i += 2) {
    const x1 = flat[i], y1 = flat[i + 1], x2 = flat[j], y2 = flat[j + 1];
    if (y1 <= py) {
      if (y2 > py && cross(x1, y1, x2, y2, px, py) > 0) winding += 1;
    } else if (y2 <= py && cross(x1, y1, x2, y2, px, py) < 0) winding -= 1;
    j = i;
  }
  return winding !== 0;
}

/** A polygon of CSS px drawn on a canvas of its box: its fill's alpha, or its line's (`edge`) at EDGE px wide. */
function raster(screen, box, edge) {
  const canvas = document.createElement("canvas");
  canvas.width = box.w; canvas.height = box.h;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  g.translate(-box.x, -box.y);
  g.beginPath();
  g.moveTo(screen[0][0], screen[0][1]);
  for (let k = 1; k < screen.length; k += 1) g.lineTo(screen[k][0], screen[k][1]);
  g.closePath();
  if (edge) { g.lineWidth = EDGE; g.strokeStyle = "#000"; g.stroke(); } else { g.fillStyle = "#000"; g.fill("nonzero"); }
  return g.getImageData(0, 0, box.w, box.h).data;
}

/**
 * Indices (ascending) of the points inside a polygon drawn on the map (null: a polygon too large to fill).
 * `x`, `y`: the points' positions in the [-1, 1] frame; `screen`: the polygon in CSS px of the map (w × h);
 * `flat`: the same polygon in the points' frame, closed, flat; `v`: the camera's view matrix (column-major 4 × 4).
 */
export default function pointsInside(x, y, screen, flat, v, w, h) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [sx, sy] of screen) { x0 = Math.min(x0, sx); y0 = Math.min(y0, sy); x1 = Math.max(x1, sx); y1 = Math.max(y1, sy); }
  const box = { x: Math.floor(x0) - EDGE, y: Math.floor(y0) - EDGE };
  box.w = Math.max(1, Math.ceil(x1) + EDGE - box.x);
  box.h = Math.max(1, Math.ceil(y1) + EDGE - box.y);
  if (box.w * box.h > MAX_PIXELS) return null;  // a path dragged far off the map: regl-scatterplot's own test
  const fill = raster(screen, box, false), edge = raster(screen, box, true);
  // screen = (w (nx / aspect + 1) / 2, h (1 - ny) / 2) with [nx, ny] = view · [x, y] (MapView.screen), per point
  const aspect = w / h, ax = (v[0] * w) / (2 * aspect), bx = (v[4] * w) / (2 * aspect);
  const cx = ((v[12] / aspect + 1) * w) / 2 - box.x;
  const ay = (-v[1] * h) / 2, by = (-v[5] * h) / 2, cy = ((1 - v[13]) * h) / 2 - box.y;
  const inside = [];
  for (let i = 0, n = x.length; i < n; i += 1) {
    const px = ax * x[i] + bx * y[i] + cx;
    if (!(px >= 0 && px < box.w)) continue;
    const py = ay * x[i] + by * y[i] + cy;
    if (!(py >= 0 && py < box.h)) continue;
    const a = 4 * ((py | 0) * box.w + (px | 0)) + 3;
    if (edge[a]) { if (windingInside(flat, x[i], y[i])) inside.push(i); } else if (fill[a] > 127) inside.push(i);
  }
  return inside;
}
