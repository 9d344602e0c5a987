// @ts-check
// The page's side of the worker (worker.mjs): one worker for the page, and each op as a call that
// resolves with the op's answer.
import { $ } from "./dom.mjs";
import { showError } from "./error-banner.mjs";
/** @import { VerifyProgress } from "../dist/esm/platform/browser.js" */
/** @import { OpArgs, OpName, WorkerMessage } from "./worker/protocol.mjs" */
/** @import { OpResult } from "./worker.mjs" */

const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
/**
 * A call the worker has not answered yet. (resolve is a method so that each call's own resolve,
 * which takes that op's result, fits: TypeScript checks method parameters bivariantly.)
 * @typedef {{
 *   resolve(value: unknown): void,
 *   reject(reason: unknown): void,
 *   onProgress: ((progress: VerifyProgress) => void) | undefined,
 * }} Pending
 */
/** @type {Map<number, Pending>} */
const pending = new Map();
let nextId = 1;

/** @type {Promise<void>} */
const ready = new Promise((resolve) => {
  worker.addEventListener("message", (/** @type {MessageEvent<WorkerMessage>} */ { data }) => {
    if (data.ready) {
      $("backend").textContent = data.ready;
      resolve();
      return;
    }
    const call = pending.get(data.id);
    if (!call) return;
    if (data.progress) {
      call.onProgress?.(data.progress);
      return;
    }
    pending.delete(data.id);
    if (data.error) call.reject(data.error);
    else call.resolve(data.result);
  });
});
worker.addEventListener("error", (event) => {
  $("backend").textContent = "failed";
  showError({ code: "WASM_LOAD", message: event.message || "the worker could not start" });
});

/**
 * Runs `op` in the worker; `onProgress` receives verify's progress.
 * @template {OpName} K
 * @param {K} op
 * @param {OpArgs[K]} [args]
 * @param {(progress: VerifyProgress) => void} [onProgress]
 * @returns {Promise<OpResult<K>>}
 */
export async function call(op, args = /** @type {OpArgs[K]} */ ({}), onProgress) {
  await ready;
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, op, ...args });
  });
}
