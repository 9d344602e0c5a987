import type { EmbindHandle } from "./core-module.js";
import { SstFilterError } from "./errors.js";

// Frees the wasm side of objects their owners forgot to dispose.
const leaked = new FinalizationRegistry<EmbindHandle>((handle) => {
  if (!handle.isDeleted()) handle.delete();
});

/**
 * A JavaScript object owning one Embind handle: dispose() (or `using`) frees the wasm side at
 * once, a FinalizationRegistry frees it for objects that are never disposed, and any use after
 * dispose() throws SstFilterError code DISPOSED.
 */
export abstract class WasmObject<Handle extends EmbindHandle> {
  private handle: Handle | null;

  /** @param what names the object in the DISPOSED error ("filter", "table", ...). */
  protected constructor(
    handle: Handle,
    private readonly what: string,
  ) {
    this.handle = handle;
    leaked.register(this, handle, this);
  }

  /** Frees the wasm memory behind this object. Calling it again does nothing. */
  dispose(): void {
    if (this.handle === null) return;
    leaked.unregister(this);
    this.handle.delete();
    this.handle = null;
  }

  /** dispose(), for `using` declarations (explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** The handle, or DISPOSED. */
  protected live(): Handle {
    if (this.handle === null) throw new SstFilterError("DISPOSED", `this ${this.what} was disposed`);
    return this.handle;
  }
}
