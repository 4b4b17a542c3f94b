// How a large selection is drawn (BENCHMARKS §31r). regl-scatterplot draws each selected point three more times
// (outline, inner border, body); in a GPU-less browser a frame's cost goes by the points drawn, so above
// SELECTION_OUTLINE_LIMIT selected points only the body is drawn (build.mjs patches regl-scatterplot's
// drawSelectedPoints at build time) and, as the rings that set the selection apart are gone, a map of more than
// SELECTION_OUTLINE_LIMIT papers draws its selected points in SELECTED (the lasso's ink): regl-scatterplot draws a
// coloured map's selection in each point's own colour, which at 1M papers left a lasso's 830,000 papers looking
// exactly like the rest. The ink is part of the map's look (set with its palette), never set at a selection:
// regl-scatterplot's set() draws a frame of its own, which at 1M papers is a second frame per lasso (~1.3 s).

export const SELECTION_OUTLINE_LIMIT = 100000;
export const SELECTED = "#1a1a1a";
const ACTIVE = [0, 0.55, 1, 1], HOVER = [1, 1, 1, 1];  // regl-scatterplot's defaults (own colours for a coloured map)

/** regl-scatterplot's selection colours for a map of `n` papers coloured with `palette`: above the limit the
 * selected points in SELECTED (one per palette colour: with fewer regl-scatterplot uses the points' own colours) and
 * a hovered one in its own colour; at or below it, regl-scatterplot's defaults (own colours, rings). */
export function selectionColours(n, palette) {
  const ink = n > SELECTION_OUTLINE_LIMIT && Array.isArray(palette) && palette.length > 0;
  return ink ? { pointColorActive: palette.map(() => SELECTED), pointColorHover: palette.slice() }
    : { pointColorActive: ACTIVE, pointColorHover: HOVER };
}
