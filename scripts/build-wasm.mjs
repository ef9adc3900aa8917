// npm run build:wasm: compiles the WebAssembly kernel (AssemblyScript), unless dist/wasm holds one newer than
// its sources and than the compiler: `npm install` in a checkout, and the first `npx perceptron-lab` there
// (which installs the checkout into npx's cache and so runs its prepare script), then skip the ~3 s compile.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const sources = "src/perceptron/assembly";
const output = "dist/wasm/perceptron-epoch.wasm";
const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -Infinity;
  }
};
const inputs = [...readdirSync(sources).map((name) => join(sources, name)), "node_modules/assemblyscript/package.json", "scripts/build-wasm.mjs"];
if (process.argv.includes("--force") || Math.max(...inputs.map(mtime)) >= mtime(output)) {
  const asc = join("node_modules", "assemblyscript", "bin", "asc.js");
  execFileSync(process.execPath, [asc, join(sources, "perceptron-epoch.ts"), "-O3", "--runtime", "stub", "--enable", "simd", "--noAssert", "-o", output], { stdio: "inherit" });
}
