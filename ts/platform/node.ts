// Node.js, ES modules. Emscripten 3.1.6's glue would fetch() the .wasm under Node 18+ and fail,
// so the bytes are read here and handed over as wasmBinary.
import { readFile } from "node:fs/promises";

import type { CoreModuleFactory } from "../core/core-module.js";
import { initWith, type InitOptions, type ModuleVariant, type Runtime } from "../api/init.js";
import { NodeSstFilter } from "./node-files.js";

export * from "../api/index.js";
export { NodeSstFilter } from "./node-files.js";

const runtime: Runtime = {
  async load(variant: ModuleVariant) {
    const [glue, wasmBinary] =
      variant === "simd"
        ? await Promise.all([
            import("../wasm/sstfilter-simd.mjs"),
            readFile(new URL("../wasm/sstfilter-simd.wasm", import.meta.url)),
          ])
        : await Promise.all([
            import("../wasm/sstfilter-scalar.mjs"),
            readFile(new URL("../wasm/sstfilter-scalar.wasm", import.meta.url)),
          ]);
    const factory: CoreModuleFactory = glue.default;
    return factory({ wasmBinary });
  },
};

NodeSstFilter.verifyWorker = new URL("./verify-worker.js", import.meta.url);

/** Loads the WebAssembly core; SIMD128 where the runtime supports it unless `simd: false`. */
export function init(options?: InitOptions): Promise<NodeSstFilter> {
  return initWith(runtime, options, NodeSstFilter);
}
