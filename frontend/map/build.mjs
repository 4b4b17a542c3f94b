// Bundle src/index.js into ONE minified ES module for Streamlit (ui/map/static/map_component.js). Its first line is a
// comment, so Streamlit takes the text as inline JavaScript, never as a path (../../../shared/MAP.md §2).
import { build } from "esbuild";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { SELECTION_OUTLINE_LIMIT } from "./src/selection.js";

const out = process.argv[2] || "../../ui/map/static/map_component.js";
const minify = !process.argv.includes("--dev");  // --dev: names kept, for a profile (benchmarks/profile_map_browser.py)

// Changes to regl-scatterplot, made here at build time (its source in node_modules stays as published): a
// selection of more than SELECTION_OUTLINE_LIMIT points is drawn in one pass (its points' bodies) instead of three
// (outline, inner border, body). In a GPU-less browser a frame's cost goes by the points drawn, not their pixels
// (BENCHMARKS §31g, §31r): a lasso over 830,000 of 1,000,000 papers drew 3.5M points a frame, ~5 s, on every frame
// while it stayed selected. src/selection.js fades the papers not selected instead of the rings.
const DRAW_SELECTED = `  const drawSelectedPoints = () => {
    drawSelectedPointOutlines();
    drawSelectedPointInnerBorder();
    drawSelectedPointBodies();
  };`;
const DRAW_SELECTED_ONCE = `  const drawSelectedPoints = () => {
    if (selectedPoints.length <= ${SELECTION_OUTLINE_LIMIT}) {
      drawSelectedPointOutlines();
      drawSelectedPointInnerBorder();
    }
    drawSelectedPointBodies();
  };`;
// A second: a mouse move that stays on the paper already hovered draws no frame. regl-scatterplot asked for a frame
// on every move over a paper, the same paper too (its hover ring, unchanged), so a hand's tremor on a paper, or the
// move a click starts with, drew every point again: 1-2 s a frame at 1,000,000 papers (BENCHMARKS §31t).
const HOVER_DRAW = `    if (!isFilteredOut && point >= 0 && point < numPoints) {
      needsRedraw = true;
      const oldHoveredPoint = hoveredPoint;
      const newHoveredPoint = point !== hoveredPoint;`;
const HOVER_DRAW_ON_CHANGE = `    if (!isFilteredOut && point >= 0 && point < numPoints) {
      const oldHoveredPoint = hoveredPoint;
      const newHoveredPoint = point !== hoveredPoint;
      needsRedraw = newHoveredPoint || showReticleOnce;`;
// A third: the mouse leaving the map draws no frame unless a paper was hovered (hover() asks for that frame itself,
// its ring taken away). regl-scatterplot drew every point on every leave, so the move from the map to the Colour by
// box or the Highlight field drew the whole map again just as the action began: ~0.8 s at 1,000,000 papers
// (BENCHMARKS §31v).
const LEAVE_DRAW = `  const mouseLeaveCanvasHandler = () => {
    hover();
    isMouseInCanvas = false;
    isMouseOverCanvasChecked = true;
    draw = true;
  };`;
const LEAVE_DRAW_IF_HOVERED = `  const mouseLeaveCanvasHandler = () => {
    hover();
    isMouseInCanvas = false;
    isMouseOverCanvasChecked = true;
  };`;
// A fourth: the points drawn on the CPU (src/raster.js, BENCHMARKS §31w). With `canvas.__mireadPoints` set (CPU mode:
// a software WebGL and a large map, or the hidden override), the frame calls it instead of drawing the points' bodies,
// and it draws a selection too large for rings itself (its return: true); regl-scatterplot draws the rest (the
// hovered point, a small selection's rings, the lasso, lines) over it, on its transparent canvas.
const FRAME_POINTS = `      const numPoints = getNormalNumPoints();
      if (isPointsDrawn && numPoints > 0) {
        drawPointBodies();
      }

      if (!mouseDown && (showReticle || drawReticleOnce)) {
        drawReticle();
      }

      if (hoveredPoint >= 0) {
        drawHoveredPoint();
      }

      if (selectedPoints.length > 0) {
        drawSelectedPoints();
      }`;
const FRAME_POINTS_CPU = `      const numPoints = getNormalNumPoints();
      if (isPointsDrawn && numPoints > 0 && !cpuPoints) {
        drawPointBodies();
      }

      if (!mouseDown && (showReticle || drawReticleOnce)) {
        drawReticle();
      }

      if (hoveredPoint >= 0) {
        drawHoveredPoint();
      }

      if (selectedPoints.length > 0 && !cpuSelected) {
        drawSelectedPoints();
      }`;
// A fifth: in CPU mode a frame with nothing for WebGL to draw (no hovered paper, no rings, no lasso, no lines, no
// reticle, no annotations) clears the map's canvas and renders nothing: regl-scatterplot rendered an empty picture
// and copied it onto the map's canvas (\`copyTo\`, a drawImage of its WebGL canvas: a read-back of the whole map,
// 60-140 ms a frame at 50,000 papers in a software WebGL; BENCHMARKS §31ae). The CPU's points are drawn first, for
// both kinds of frame, with the projection regl-scatterplot's own frame sets.
const FRAME_RENDER = `    renderer.render(() => {
      const widthRatio = canvas.width / renderer.canvas.width;
      const heightRatio = canvas.height / renderer.canvas.height;

      updateProjectionMatrix(widthRatio, heightRatio);
`;
const FRAME_RENDER_CPU = `    const cpuPoints = canvas.__mireadPoints;
    let cpuSelected = false;
    if (cpuPoints) {
      updateProjectionMatrix(canvas.width / renderer.canvas.width, canvas.height / renderer.canvas.height);
      cpuSelected = cpuPoints({ pointScale: getPointScale(), selected: selectedPoints,
        drawn: isPointsDrawn && getNormalNumPoints() > 0, selectedSize: pointSizeSelected * window.devicePixelRatio,
        antiAliasing });
    }
    const glDrawsNothing = cpuPoints && !backgroundImage?._reglType && lassoPointsCurr.length === 0
      && !isTransitioning && !showPointConnections && !isAnnotationsDrawn && !showReticle && !drawReticleOnce
      && !(hoveredPoint >= 0) && (selectedPoints.length === 0 || cpuSelected);
    if (glDrawsNothing) canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
    else renderer.render(() => {
      const widthRatio = canvas.width / renderer.canvas.width;
      const heightRatio = canvas.height / renderer.canvas.height;

      updateProjectionMatrix(widthRatio, heightRatio);
`;
const patches = [
  [DRAW_SELECTED, DRAW_SELECTED_ONCE, "drawSelectedPoints"],
  [HOVER_DRAW, HOVER_DRAW_ON_CHANGE, "hover"],
  [LEAVE_DRAW, LEAVE_DRAW_IF_HOVERED, "mouseLeaveCanvasHandler"],
  [FRAME_POINTS, FRAME_POINTS_CPU, "frame's points"],
  [FRAME_RENDER, FRAME_RENDER_CPU, "frame's render"],
];
const selectionInOnePass = {
  name: "regl-scatterplot-patches",
  setup(b) {
    b.onLoad({ filter: /regl-scatterplot[\\/]dist[\\/]regl-scatterplot\.esm\.js$/ }, (args) => {
      let text = readFileSync(args.path, "utf8");
      for (const [was, now, name] of patches) {
        if (!text.includes(was)) throw new Error(`regl-scatterplot's ${name} changed: see build.mjs`);
        text = text.replace(was, now);
      }
      // and its KDBush class exported, so src/spatial.js builds the hover index with the same class and format
      if (!text.includes("var createKDBushClass = () => {")) throw new Error("regl-scatterplot's KDBush changed");
      return { contents: `${text}\nexport { createKDBushClass };\n`, loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: ["src/index.js"], bundle: true, minify, format: "esm", target: "es2020", write: false,
  legalComments: "none", plugins: [selectionInOnePass],
});
const version = JSON.parse(readFileSync("node_modules/regl-scatterplot/package.json", "utf8")).version;
const code = result.outputFiles[0].text;
if (code.includes("</script")) throw new Error("the bundle must not contain </script (the HTML export inlines it)");
if (/\beval\(/.test(code)) throw new Error("the bundle must not call eval");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `// MIReAD map component: regl-scatterplot ${version} (MIT) bundled by esbuild from frontend/map; do not edit.\n${code}`);
console.log(`${out}: ${code.length} bytes`);
