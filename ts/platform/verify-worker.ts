// A thread of verify-parallel.ts (VerifyWorker): for each message, opens the file and verifies the
// data blocks of its range (and the meta blocks when asked: a whole table of db.verify).
import { parentPort } from "node:worker_threads";

import { SstFilterError } from "../core/errors.js";
import { init } from "./node.js";
import type { VerifyWorkerInput, VerifyWorkerMessage } from "./verify-parallel.js";
import { verifyTable } from "../api/table-verify.js";

// Loaded once: the module and its heap stay for the next message. A failure to load is each
// message's answer (main awaits it), not an unhandled rejection.
const sf = init();
sf.catch(() => undefined);

async function main(input: VerifyWorkerInput): Promise<VerifyWorkerMessage> {
  try {
    const table = await (
      await sf
    ).openTableFile(input.file, {
      internalKeys: input.internalKeys,
      ...(input.comparator !== undefined ? { comparator: input.comparator } : {}),
      ...(input.manifestComparator !== undefined ? { manifestComparator: input.manifestComparator } : {}),
    });
    try {
      const report = await verifyTable(table, {
        range: { from: input.from, to: input.to },
        metaBlocks: input.metaBlocks ?? false,
        maxReported: input.maxReported,
        onProgress: (progress) => parentPort!.postMessage({ progress } satisfies VerifyWorkerMessage),
      });
      return { report };
    } finally {
      table.dispose();
    }
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
