// @ts-check
// The page's side of the worker (worker.mjs): one worker for the page, and each op as a call that
// resolves with the op's answer; a long op that Cancel must stop at once in a worker of its own.
import { $ } from "./dom.mjs";
import { showError } from "./error-banner.mjs";
/** @import { DiffProgress, VerifyProgress } from "../dist/esm/platform/browser.js" */
/** @import { OpArgs, OpName, OpProgress, WorkerMessage } from "./worker/protocol.mjs" */
/** @import { OpResult } from "./worker.mjs" */

const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
/**
 * A call the worker has not answered yet. (resolve is a method so that each call's own resolve,
 * which takes that op's result, fits: TypeScript checks method parameters bivariantly.)
 * @typedef {{
 *   resolve(value: unknown): void,
 *   reject(reason: unknown): void,
 *   onProgress: ((progress: VerifyProgress | DiffProgress) => void) | undefined,
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
 * Runs `op` in the worker; `onProgress` receives verify's or diff's progress.
 * @template {OpName} K
 * @param {K} op
 * @param {OpArgs[K]} [args]
 * @param {(progress: OpProgress<K>) => void} [onProgress]
 * @returns {Promise<OpResult<K>>}
 */
export async function call(op, args = /** @type {OpArgs[K]} */ ({}), onProgress) {
  await ready;
  return new Promise((resolve, reject) => {
    const id = nextId++;
    // The worker posts op K's progress only to K's call.
    const onAnyProgress = /** @type {Pending["onProgress"]} */ (onProgress);
    pending.set(id, { resolve, reject, onProgress: onAnyProgress });
    worker.postMessage({ id, op, ...args });
  });
}

/**
 * Runs `op` in a worker of its own (worker.mjs), started for this call and ended with it: the
 * page's worker stays free for the other views, and cancel() ends the op at once, however busy
 * (the worker is terminated; the result rejects with an AbortError).
 * @template {OpName} K
 * @param {K} op
 * @param {OpArgs[K]} args
 * @param {(progress: OpProgress<K>) => void} onProgress
 * @returns {{ result: Promise<OpResult<K>>, cancel(): void }}
 */
export function callInOwnWorker(op, args, onProgress) {
  const own = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
  /** @type {(reason: unknown) => void} */
  let fail = () => undefined;
  /** @type {Promise<OpResult<K>>} */
  const result = new Promise((resolve, reject) => {
    fail = (reason) => {
      own.terminate();
      reject(reason);
    };
    own.addEventListener("message", (/** @type {MessageEvent<WorkerMessage>} */ { data }) => {
      if (data.ready !== undefined) own.postMessage({ id: 0, op, ...args });
      // The worker posts op K's progress.
      else if (data.progress !== undefined) onProgress(/** @type {OpProgress<K>} */ (data.progress));
      else if (data.error !== undefined) fail(data.error);
      else {
        own.terminate();
        resolve(/** @type {OpResult<K>} */ (data.result));
      }
    });
    own.addEventListener("error", (event) =>
      fail({ code: "WASM_LOAD", message: event.message || "the worker could not start" }),
    );
  });
  return { result, cancel: () => fail({ code: "AbortError", message: "cancelled" }) };
}
