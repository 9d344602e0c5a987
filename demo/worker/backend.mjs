// @ts-check
// The wasm core of this worker (each verify worker loads one of its own), shared by its ops.
import { init } from "../../dist/esm/platform/browser.js";

export const sf = await init();
