// How the Node entries (node.ts, node-cjs.ts) and the verify workers instantiate the core: from a
// WebAssembly.Module compiled once per variant and process. A worker thread is handed that Module
// (worker_threads clone it without recompiling, and V8 shares its compiled and tiered-up code
// between the threads), so a further verify thread costs an instance, not a compilation.
// Emscripten 3.1.6's glue would fetch() the .wasm under Node 18+ and fail; it is given the
// instance through instantiateWasm instead (INCOMING_MODULE_JS_API in CMakeLists.txt).
import type { CoreModule, CoreModuleFactory } from "../core/core-module.js";
import type { ModuleVariant } from "../api/init.js";

/** A compiled core as the verify workers are given it (VerifyWorker's workerData). */
export interface CompiledCore {
  variant: ModuleVariant;
  module: WebAssembly.Module;
}

const compiled = new Map<ModuleVariant, WebAssembly.Module>();

/** Compiles the .wasm bytes `read` gives and instantiates them with the glue of `factory`. */
export async function loadCore(
  variant: ModuleVariant,
  factory: CoreModuleFactory,
  read: () => Promise<Uint8Array<ArrayBuffer>>,
): Promise<CoreModule> {
  const module = await WebAssembly.compile(await read());
  compiled.set(variant, module);
  return instantiateCore(factory, module);
}

/** The Module the variant was compiled to in this thread (loadCore), if it was. */
export function compiledCore(variant: ModuleVariant): CompiledCore | null {
  const module = compiled.get(variant);
  return module === undefined ? null : { variant, module };
}

/** An instance of an already compiled core, wrapped by its glue. */
export function instantiateCore(factory: CoreModuleFactory, module: WebAssembly.Module): Promise<CoreModule> {
  return new Promise((resolve, reject) => {
    factory({
      // The glue waits for receive(); a failed instantiation (or a Module that is not the core's,
      // which receive() fails on) would leave it waiting, so it rejects here.
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports)
          .then((instance) => receive(instance, module))
          .catch(reject);
        return {};
      },
    }).then(resolve, reject);
  });
}
