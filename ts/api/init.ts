import { SstFilter, type Backend } from "./api.js";
import type { CoreModule } from "../core/core-module.js";
import { SstFilterError } from "../core/errors.js";

/** init's options: `simd: false` forces the portable module. */
export interface InitOptions {
  /**
   * true: require the SIMD128 module; false: use the portable one (parity tests, old runtimes).
   * Default: SIMD128 where the runtime validates a SIMD128 module.
   */
  simd?: boolean;
}

/** The two wasm modules: with SIMD128 and portable. */
export type ModuleVariant = "simd" | "scalar";

/** How one platform (Node ESM, Node CommonJS, browsers) instantiates a module variant. */
export interface Runtime {
  /** Instantiates the wasm module `variant` as the platform loads it (fs in Node, a URL in browsers). */
  load(variant: ModuleVariant): Promise<CoreModule>;
}

// (module (func (result v128) i32.const 0 i32x4.splat)): valid only where SIMD128 is supported.
const SIMD128_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01,
  0x00, 0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x11, 0x0b,
]);

/** Whether this JavaScript runtime accepts WebAssembly SIMD128. */
export function simd128Supported(): boolean {
  try {
    return WebAssembly.validate(SIMD128_PROBE);
  } catch {
    return false;
  }
}

const loaded = new WeakMap<Runtime, Map<ModuleVariant, Promise<CoreModule>>>();

/** The class an entry point wraps a loaded module in (the Node entries add file access). */
export type ApiClass<T extends SstFilter> = new (module: CoreModule, backend: Backend) => T;

/** Loads (once per runtime and variant) and wraps a module. */
export function initWith(runtime: Runtime, options?: InitOptions): Promise<SstFilter>;
export function initWith<T extends SstFilter>(
  runtime: Runtime,
  options: InitOptions | undefined,
  Api: ApiClass<T>,
): Promise<T>;
export async function initWith(
  runtime: Runtime,
  options: InitOptions = {},
  Api: ApiClass<SstFilter> = SstFilter,
): Promise<SstFilter> {
  if (options === null || typeof options !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "init takes an options object");
  }
  if (options.simd !== undefined && typeof options.simd !== "boolean") {
    throw new SstFilterError("BAD_OPTIONS", `simd must be a boolean, got ${typeof options.simd}`);
  }
  const supported = simd128Supported();
  if (options.simd === true && !supported) {
    throw new SstFilterError("WASM_LOAD", "this runtime does not support WebAssembly SIMD128");
  }
  const variant: ModuleVariant = (options.simd ?? supported) ? "simd" : "scalar";
  let cache = loaded.get(runtime);
  if (cache === undefined) {
    cache = new Map();
    loaded.set(runtime, cache);
  }
  let module = cache.get(variant);
  if (module === undefined) {
    module = runtime.load(variant).catch((error: unknown) => {
      cache.delete(variant);
      if (error instanceof SstFilterError) throw error;
      throw new SstFilterError("WASM_LOAD", `loading the ${variant} module failed: ${String(error)}`);
    });
    cache.set(variant, module);
  }
  const backend: Backend = variant === "simd" ? "wasm-simd128" : "wasm-scalar";
  return new Api(await module, backend);
}
