// A thread of verify-parallel.ts (VerifyWorker): for each message, verifies the data blocks of its
// range of a file (and the meta blocks when asked: a whole table of db.verify). The core is the
// Module the starting thread compiled (workerData), instantiated here without compiling again.
// Only what a walk needs is imported (the heap, tables, verifyTable), not the whole API, whose
// modules take a worker 20-29 ms to load instead of 11 (measured on Node 20).
import { parentPort, workerData } from "node:worker_threads";

import { SstFilterError } from "../core/errors.js";
import { WasmHeap } from "../core/heap.js";
import { openTableFrom, type AsyncTable } from "../api/table.js";
import { verifyTable } from "../api/table-verify.js";
import { openFileSource } from "./node-file-source.js";
import { nodeGlue } from "./node-glue.js";
import { instantiateCore, type CompiledCore } from "./node-wasm.js";
import type { VerifyWorkerInput, VerifyWorkerMessage } from "./verify-parallel.js";

const core = workerData as CompiledCore;

// Loaded once: the instance and its heap stay for the next message. A failure to load is each
// message's answer (main awaits it), not an unhandled rejection.
const heap = nodeGlue(core.variant)
  .then((factory) => instantiateCore(factory, core.module))
  .then(
    (module) => new WasmHeap(module),
    (error: unknown) => {
      throw new SstFilterError("WASM_LOAD", `loading the ${core.variant} module failed: ${String(error)}`);
    },
  );
heap.catch(() => undefined);

// The table of the last message, kept open while the next ones name the same file and options:
// `verify --jobs` hands a thread range after range of one table.
let kept: { key: string; table: Promise<AsyncTable> } | null = null;

function tableFor(input: VerifyWorkerInput): Promise<AsyncTable> {
  const key = JSON.stringify([input.file, input.internalKeys, input.comparator, input.manifestComparator]);
  if (kept?.key === key) return kept.table;
  kept?.table.then(
    (t) => t.dispose(),
    () => undefined,
  );
  const table = heap.then(async (loaded) => {
    const { source, close } = await openFileSource(input.file);
    const opts = {
      internalKeys: input.internalKeys,
      ...(input.comparator !== undefined ? { comparator: input.comparator } : {}),
      ...(input.manifestComparator !== undefined ? { manifestComparator: input.manifestComparator } : {}),
    };
    return openTableFrom(loaded, source, opts, close);
  });
  const entry = { key, table };
  kept = entry;
  // A file that did not open is tried again by the next message naming it.
  table.catch(() => {
    if (kept === entry) kept = null;
  });
  return table;
}

async function main(input: VerifyWorkerInput): Promise<VerifyWorkerMessage> {
  try {
    const report = await verifyTable(await tableFor(input), {
      range: { from: input.from, to: input.to },
      metaBlocks: input.metaBlocks ?? false,
      maxReported: input.maxReported,
      onProgress: (progress) => parentPort!.postMessage({ progress } satisfies VerifyWorkerMessage),
    });
    return { report };
  } catch (error) {
    const typed = error instanceof SstFilterError;
    return {
      error: {
        code: typed ? error.code : null,
        // Without the " (at byte N)" the error's constructor adds again on the other side.
        message: error instanceof Error ? error.message.replace(/ \(at byte \d+\)$/, "") : String(error),
        offset: typed ? error.offset : undefined,
      },
    };
  }
}

// One verification per message, one at a time (VerifyWorker waits for each answer).
parentPort!.on("message", (input: VerifyWorkerInput) => {
  void main(input).then((answer) => parentPort!.postMessage(answer));
});
