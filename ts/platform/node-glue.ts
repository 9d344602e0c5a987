// The ES module glue of a core variant, for node.ts and the verify worker (which is always the ES
// module build's). The two imports are spelled out for bundlers and the type checker.
import type { CoreModuleFactory } from "../core/core-module.js";
import type { ModuleVariant } from "../api/init.js";

/** The Emscripten factory of the core's `variant` (ES module glue). */
export async function nodeGlue(variant: ModuleVariant): Promise<CoreModuleFactory> {
  const glue =
    variant === "simd"
      ? await import("../wasm/sstfilter-simd.mjs")
      : await import("../wasm/sstfilter-scalar.mjs");
  return glue.default;
}
