// A 2-D canvas over the map (the overlay, the lasso's layer): its bitmap sized to the map at the screen's pixel
// ratio, cleared, drawn in CSS pixels.

/** The canvas's 2-D context, the bitmap w × h CSS px at the device pixel ratio, cleared. */
export default function clearedLayer(canvas, w, h) {
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
  }
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  return g;
}
