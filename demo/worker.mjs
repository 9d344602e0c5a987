// @ts-check
// The viewer's Web Worker: every wasm call and file read happens here, so the page never freezes.
// Its ops, by view: the table view's (worker/table-ops.mjs, and its Diff's, worker/diff-ops.mjs, run
// in a worker of their own), the database and Stores views' (worker/database-ops.mjs) and the
// playgrounds' (worker/playground-ops.mjs); worker/protocol.mjs has the messages' shapes.
// Protocol: the page posts { id, op, ...args }; the worker answers { id, result } or
// { id, error: { code, message, offset } }, and { id, progress } while a long operation runs.
import { sf } from "./worker/backend.mjs";
import { databaseOps } from "./worker/database-ops.mjs";
import { diffOps } from "./worker/diff-ops.mjs";
import { playgroundOps } from "./worker/playground-ops.mjs";
import { plainError } from "./worker/protocol.mjs";
import { tableOps } from "./worker/table-ops.mjs";
/** @import { DiffProgress, VerifyProgress } from "../dist/esm/platform/browser.js" */
/** @import { OpName, WorkerMessage, WorkerRequest } from "./worker/protocol.mjs" */

/**
 * The part of the worker's global scope this file uses (the page's lib types `self` as a Window).
 * @typedef {object} WorkerScope
 * @property {((event: MessageEvent<WorkerRequest>) => void) | null} onmessage
 * @property {(message: WorkerMessage) => void} postMessage
 */

const scope = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

const ops = { ...tableOps, ...diffOps, ...databaseOps, ...playgroundOps };

/**
 * The ops by name; OpResult<K> is what op K answers.
 * @typedef {typeof ops} Ops
 */
/**
 * @template {OpName} K
 * @typedef {Awaited<ReturnType<Ops[K]>>} OpResult
 */

/**
 * How the message handler calls an op: `op` and the arguments the page posted with it match.
 * @typedef {(args: object, progress: (progress: VerifyProgress | DiffProgress) => void) => Promise<unknown>} AnyOp
 */

// The event is annotated: in JS files, an assignment to a property of a const gets no contextual type.
scope.onmessage = async (/** @type {MessageEvent<WorkerRequest>} */ { data }) => {
  const { id, op, ...args } = data;
  try {
    const result = await /** @type {AnyOp} */ (ops[op])(args, (progress) =>
      scope.postMessage({ id, progress }),
    );
    scope.postMessage({ id, result });
  } catch (error) {
    scope.postMessage({ id, error: plainError(error) });
  }
};

scope.postMessage({ ready: sf.backend });
