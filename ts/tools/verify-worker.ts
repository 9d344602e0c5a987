// One thread of verify-parallel.ts: opens the file and verifies the data blocks of its range.
import { parentPort, workerData } from "node:worker_threads";

import { SstFilterError } from "../api/errors.js";
import { init } from "../platform/node.js";
import type { VerifyWorkerInput, VerifyWorkerMessage } from "./verify-parallel.js";
import { verifyTable } from "./verify.js";

async function main(input: VerifyWorkerInput): Promise<VerifyWorkerMessage> {
  try {
    const sf = await init();
    const table = await sf.openTableFile(input.file, { internalKeys: input.internalKeys });
    try {
      const report = await verifyTable(table, {
        range: { from: input.from, to: input.to },
        metaBlocks: false,
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

parentPort!.postMessage(await main(workerData as VerifyWorkerInput));
