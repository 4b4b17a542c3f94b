// Bundle src/index.js into ONE minified ES module for Streamlit (ui/map/static/map_component.js). Its first line is a
// comment, so Streamlit takes the text as inline JavaScript, never as a path (../../../shared/MAP.md §2).
import { build } from "esbuild";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";

const out = "../../ui/map/static/map_component.js";
const result = await build({
  entryPoints: ["src/index.js"], bundle: true, minify: true, format: "esm", target: "es2020", write: false,
  legalComments: "none",
});
const version = JSON.parse(readFileSync("node_modules/regl-scatterplot/package.json", "utf8")).version;
const code = result.outputFiles[0].text;
if (code.includes("</script")) throw new Error("the bundle must not contain </script (the HTML export inlines it)");
if (/\beval\(/.test(code)) throw new Error("the bundle must not call eval");
mkdirSync("../../ui/map/static", { recursive: true });
writeFileSync(out, `// MIReAD map component: regl-scatterplot ${version} (MIT) bundled by esbuild from frontend/map; do not edit.\n${code}`);
console.log(`${out}: ${code.length} bytes`);
