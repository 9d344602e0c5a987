// Node.js, ES modules: the glue imported, the .wasm read beside it and compiled (node-wasm.ts).
import { readFile } from "node:fs/promises";

import { initWith, type InitOptions, type ModuleVariant, type Runtime } from "../api/init.js";
import { NodeSstFilter } from "./node-files.js";
import { nodeGlue } from "./node-glue.js";
import { loadCore } from "./node-wasm.js";

export * from "../api/index.js";
export { NodeSstFilter } from "./node-files.js";

const runtime: Runtime = {
  async load(variant: ModuleVariant) {
    const factory = await nodeGlue(variant);
    return loadCore(variant, factory, () =>
      readFile(new URL(`../wasm/sstfilter-${variant}.wasm`, import.meta.url)),
    );
  },
};

NodeSstFilter.verifyWorker = new URL("./verify-worker.js", import.meta.url);

/** Loads the WebAssembly core; SIMD128 where the runtime supports it unless `simd: false`. */
export function init(options?: InitOptions): Promise<NodeSstFilter> {
  return initWith(runtime, options, NodeSstFilter);
}
