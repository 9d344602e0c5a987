// The test builds of the wasm modules (sstfilter-*-testing, copied to build/testing-dist by
// scripts/build.sh): the shipped code plus the hooks of wasm/testing/, wrapped by the built
// package's own loader, for white-box checks the shipped modules cannot answer (live handles,
// heap in use, Ribbon sizing digests).
import { readFileSync } from "node:fs";
import * as path from "node:path";

import type { NodeSstFilter } from "sstfilter";

const REPO = path.resolve(__dirname, "..", "..");
const TESTING_DIST = path.join(REPO, "build", "testing-dist");

/** Mirrors TestingHooks in ts/core/core-module.ts (not exported by the package). */
export interface TestingHooks {
  liveHandles(): number;
  heapInUse(): number;
  ribbonSizingDigest(first: number, last: number, step: number): string;
  ribbonFpRateTargetDigest(randomCount: number): string;
  singleTableManifest(
    fileNumber: number,
    fileSize: number,
    level: number,
    smallestHex: string,
    largestHex: string,
    largestSeqno: number,
  ): Uint8Array | null;
  memcpyMismatches(maxLength: number): number;
  HEAPU8: Uint8Array;
}

interface InitModule {
  initWith(
    runtime: { load(variant: string): Promise<unknown> },
    options: { simd: boolean },
    api: unknown,
  ): Promise<NodeSstFilter>;
}

/** An SstFilter on the test build of the simd or scalar module, and that module's hooks. */
export async function loadTestingBackend(simd: boolean): Promise<{ sf: NodeSstFilter; hooks: TestingHooks }> {
  // The package's internal loader, from the same build the "sstfilter" import maps to.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { initWith } = require(path.join(REPO, "dist", "cjs", "api", "init.js")) as InitModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { NodeSstFilter } = require(path.join(REPO, "dist", "cjs", "platform", "node-files.js")) as {
    NodeSstFilter: unknown;
  };
  const runtime = {
    async load(variant: string): Promise<unknown> {
      const glue = path.join(TESTING_DIST, `sstfilter-${variant}-testing.cjs`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const factory = require(glue) as (options: { wasmBinary: Uint8Array }) => Promise<unknown>;
      return factory({
        wasmBinary: readFileSync(path.join(TESTING_DIST, `sstfilter-${variant}-testing.wasm`)),
      });
    },
  };
  const sf = await initWith(runtime, { simd }, NodeSstFilter);
  return { sf, hooks: (sf as unknown as { heap: { module: TestingHooks } }).heap.module };
}
