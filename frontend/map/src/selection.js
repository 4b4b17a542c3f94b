// How a large selection is drawn (BENCHMARKS §31r). regl-scatterplot draws each selected point three more times
// (outline, inner border, body); in a GPU-less browser a frame's cost goes by the points drawn, so above
// SELECTION_OUTLINE_LIMIT selected points only the body is drawn (build.mjs patches regl-scatterplot's
// drawSelectedPoints at build time) and, as the rings that set the selection apart are gone, the selected points are
// drawn in SELECTED (the lasso's ink; regl-scatterplot draws a coloured map's selection in each point's own colour,
// which at 1M papers left a lasso's 830,000 papers looking exactly like the rest) and the points not selected are
// faded to INACTIVE_OPACITY of their opacity (regl-scatterplot's opacityInactiveScale: the same pass, no extra
// points drawn; at 1M papers the points overlap so much that the fade alone does not show).

export const SELECTION_OUTLINE_LIMIT = 100000;
export const INACTIVE_OPACITY = 0.25;
export const SELECTED = "#1a1a1a";
const ACTIVE = [0, 0.55, 1, 1], HOVER = [1, 1, 1, 1];  // regl-scatterplot's defaults (own colours for a coloured map)

/** regl-scatterplot's options for a selection of `count` points on a map coloured with `palette`: above the limit
 * the selected points in SELECTED (one per palette colour: regl-scatterplot uses its own colours otherwise), a hovered
 * one in its own colour, the rest faded; at or below it, regl-scatterplot's defaults. */
export function selectionOptions(count, palette) {
  const big = count > SELECTION_OUTLINE_LIMIT && Array.isArray(palette) && palette.length > 0;
  return big ? { opacityInactiveScale: INACTIVE_OPACITY, pointColorActive: palette.map(() => SELECTED),
    pointColorHover: palette.slice() } : { opacityInactiveScale: 1, pointColorActive: ACTIVE, pointColorHover: HOVER };
}
