// For Node scripts (bench/wasm-bench.mjs, tests/ts/leak-soak-child.mjs): an SstFilter on the test
// build of the simd or scalar wasm module (scripts/build.sh copies it to build/testing-dist), whose
// module adds the hooks of wasm/testing/ (TestingHooks in ts/core/core-module.ts). Jest suites use
// tests/ts/testing-backend.ts, its CommonJS counterpart.
import { readFile } from "node:fs/promises";

import { initWith } from "../dist/esm/api/init.js";
import { NodeSstFilter } from "../dist/esm/platform/node-files.js";

const testingDist = new URL("../build/testing-dist/", import.meta.url);

/** @param {boolean} simd @returns {Promise<NodeSstFilter>} */
export function initTesting(simd) {
  const runtime = {
    /** @param {"simd" | "scalar"} variant */
    async load(variant) {
      const [glue, wasmBinary] = await Promise.all([
        import(new URL(`sstfilter-${variant}-testing.mjs`, testingDist).href),
        readFile(new URL(`sstfilter-${variant}-testing.wasm`, testingDist)),
      ]);
      return glue.default({ wasmBinary });
    },
  };
  return initWith(runtime, { simd }, NodeSstFilter);
}
