// The hover and click index of new points (regl-scatterplot's KDBush, the same class and format), built in a worker
// from the points' x and y as soon as they come, while the page's state is awaited and the points are prepared.
// regl-scatterplot builds it inside its draw, before the first frame: on the main thread below 1M points, and at 1M
// in a worker it sends every point to as a small array (a structured clone of a million arrays on the main thread).
// Handed to the draw as `spatialIndex` (an ArrayBuffer), it is taken as it is (BENCHMARKS §31s).
import { createKDBushClass } from "regl-scatterplot";  // exported by build.mjs's patch

const NODE_SIZE = 16;  // regl-scatterplot's own
const SOURCE = `const createKDBushClass = ${createKDBushClass.toString()};
const KDBush = createKDBushClass();
self.onmessage = (event) => {
  const { x, y } = event.data;
  const index = new KDBush(x.length, ${NODE_SIZE});
  for (let i = 0; i < x.length; i += 1) index.add(x[i], y[i]);
  index.finish();
  self.postMessage(index.data, [index.data]);
};`;

/** The index of the points (x, y: Float32Arrays, copied to the worker) as KDBush's ArrayBuffer; null when a worker
 * cannot be made or fails (regl-scatterplot then builds the index itself). */
export function buildIndex(x, y) {
  return new Promise((resolve) => {
    let worker;
    try {
      const url = URL.createObjectURL(new Blob([SOURCE], { type: "text/javascript" }));
      worker = new Worker(url, { name: "miread-index" });
      URL.revokeObjectURL(url);
    } catch (e) {
      resolve(null);
      return;
    }
    const done = (value) => { worker.terminate(); resolve(value); };
    worker.onmessage = (event) => done(event.data instanceof ArrayBuffer ? event.data : null);
    worker.onerror = () => done(null);
    const xs = Float32Array.from(x), ys = Float32Array.from(y);
    worker.postMessage({ x: xs, y: ys }, [xs.buffer, ys.buffer]);
  });
}
