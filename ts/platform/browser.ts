// Browsers and bundlers. `new URL("../wasm/….wasm", import.meta.url)` is the pattern Vite,
// webpack 5, esbuild and Rollup recognise to ship the .wasm beside the bundle.
import type { CoreModuleFactory } from "../core/core-module.js";
import { initWith, type InitOptions, type ModuleVariant, type Runtime } from "../api/init.js";
import type { SstFilter } from "../api/api.js";

export * from "../api/index.js";

const runtime: Runtime = {
  async load(variant: ModuleVariant) {
    const [glue, url] =
      variant === "simd"
        ? [
            await import("../wasm/sstfilter-simd.mjs"),
            new URL("../wasm/sstfilter-simd.wasm", import.meta.url),
          ]
        : [
            await import("../wasm/sstfilter-scalar.mjs"),
            new URL("../wasm/sstfilter-scalar.wasm", import.meta.url),
          ];
    const factory: CoreModuleFactory = glue.default;
    return factory({ locateFile: () => url.href });
  },
};

/** Loads the WebAssembly core; SIMD128 where the browser supports it unless `simd: false`. */
export function init(options?: InitOptions): Promise<SstFilter> {
  return initWith(runtime, options);
}
