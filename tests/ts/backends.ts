// Both wasm modules, so every suite runs on each of them.
import { init, type SstFilter } from "sstfilter";

export const BACKENDS = [
  { name: "wasm-simd128", simd: true },
  { name: "wasm-scalar", simd: false },
] as const;

export function loadBackend(simd: boolean): Promise<SstFilter> {
  return init({ simd });
}
