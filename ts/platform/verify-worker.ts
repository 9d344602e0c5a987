// A thread of verify-parallel.ts (VerifyWorker): for each message, verifies the data blocks of its
// range of a file (and the meta blocks when asked: a whole table of db.verify). The core is the
// Module the starting thread compiled (workerData), instantiated here without compiling again.
import { parentPort, workerData } from "node:worker_threads";

import { SstFilterError } from "../core/errors.js";
import { initWith } from "../api/init.js";
import type { AsyncTable } from "../api/table.js";
import { verifyTable } from "../api/table-verify.js";
import { NodeSstFilter } from "./node-files.js";
import { nodeGlue } from "./node-glue.js";
import { instantiateCore, type CompiledCore } from "./node-wasm.js";
import type { VerifyWorkerInput, VerifyWorkerMessage } from "./verify-parallel.js";

const core = workerData as CompiledCore;

// Loaded once: the module and its heap stay for the next message. A failure to load is each
// message's answer (main awaits it), not an unhandled rejection.
const sf = initWith(
  { load: async () => instantiateCore(await nodeGlue(core.variant), core.module) },
  { simd: core.variant === "simd" },
  NodeSstFilter,
);
sf.catch(() => undefined);

// The table of the last message, kept open while the next ones name the same file and options:
// `verify --jobs` hands a thread range after range of one table.
let kept: { key: string; table: Promise<AsyncTable> } | null = null;

function tableFor(input: VerifyWorkerInput): Promise<AsyncTable> {
  const key = JSON.stringify([input.file, input.internalKeys, input.comparator, input.manifestComparator]);
  if (kept?.key === key) return kept.table;
  kept?.table.then((t) => t.dispose(), () => undefined);
  const table = sf.then((loaded) =>
    loaded.openTableFile(input.file, {
      internalKeys: input.internalKeys,
      ...(input.comparator !== undefined ? { comparator: input.comparator } : {}),
      ...(input.manifestComparator !== undefined ? { manifestComparator: input.manifestComparator } : {}),
    }),
  );
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
