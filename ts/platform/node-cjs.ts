// Node.js, CommonJS. The glue is the CommonJS build of the same module; the .wasm bytes are the
// ones shipped beside the ES module build, read and compiled here (node-wasm.ts).
import { readFile } from "node:fs/promises";
import * as path from "node:path";

import type { CoreModuleFactory } from "../core/core-module.js";
import { initWith, type InitOptions, type ModuleVariant, type Runtime } from "../api/init.js";
import { NodeSstFilter } from "./node-files.js";
import { loadCore } from "./node-wasm.js";

export * from "../api/index.js";
export { NodeSstFilter } from "./node-files.js";

const wasmDir = path.join(__dirname, "..", "..", "esm", "wasm");

const runtime: Runtime = {
  async load(variant: ModuleVariant) {
    const factory = require(`../wasm/sstfilter-${variant}.cjs`) as CoreModuleFactory;
    return loadCore(variant, factory, () => readFile(path.join(wasmDir, `sstfilter-${variant}.wasm`)));
  },
};

// The worker of parallel verification is an ES module whatever loads it: the ES module build's.
NodeSstFilter.verifyWorker = path.join(__dirname, "..", "..", "esm", "platform", "verify-worker.js");

/** Loads the WebAssembly core; SIMD128 where the runtime supports it unless `simd: false`. */
export function init(options?: InitOptions): Promise<NodeSstFilter> {
  return initWith(runtime, options, NodeSstFilter);
}
