// Verifies a table file on several threads (Node's worker_threads), as `sstfilter verify --jobs`
// does: verifyTableSplit shares the data blocks out, and verify-worker.ts opens the file itself
// and verifies one range.
import { Worker } from "node:worker_threads";

import { SstFilterError, type SstFilterErrorCode } from "../api/errors.js";
import type { AsyncTable } from "../api/table.js";
import { verifyTableSplit, type VerifyOptions, type VerifyProgress, type VerifyReport } from "./verify.js";

/** What verify-worker.ts is given. */
export interface VerifyWorkerInput {
  file: string;
  internalKeys: boolean;
  from: number;
  to: number;
  maxReported: number;
}

/** What verify-worker.ts posts: progress, then its report or the error it stopped with. */
export type VerifyWorkerMessage =
  | { progress: VerifyProgress }
  | { report: VerifyReport }
  | { error: { code: SstFilterErrorCode | null; message: string; offset: number | undefined } };

export interface ParallelVerifyOptions extends Pick<VerifyOptions, "onProgress" | "maxReported"> {
  /** Threads to use (1: verify here, without workers). */
  jobs: number;
  /** As the table was opened with. */
  internalKeys: boolean;
}

/** Runs one range in a worker of verify-worker.ts. */
function verifyRangeInWorker(
  input: VerifyWorkerInput,
  onProgress: (p: VerifyProgress) => void,
  signal: AbortSignal | undefined,
): Promise<VerifyReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./verify-worker.js", import.meta.url), { workerData: input });
    let settled = false;
    const stop = (): void => {
      settled = true;
      reject(signal?.reason);
      void worker.terminate();
    };
    signal?.addEventListener("abort", stop, { once: true });
    const settle = (): void => {
      settled = true;
      signal?.removeEventListener("abort", stop);
    };
    worker.on("message", (message: VerifyWorkerMessage) => {
      if ("progress" in message) {
        onProgress(message.progress);
      } else {
        settle();
        if ("report" in message) resolve(message.report);
        else {
          const { code, message: text, offset } = message.error;
          reject(code === null ? new Error(text) : new SstFilterError(code, text, offset));
        }
      }
    });
    worker.on("error", (error) => {
      settle();
      reject(error);
    });
    worker.on("exit", (code) => {
      if (!settled) {
        settle();
        reject(new Error(`verify worker exited with ${code}`));
      }
    });
  });
}

/**
 * verifyTable over `table` (opened from `file`), its data blocks split between up to `jobs`
 * threads (verifyTableSplit). Each range stops at its own first failing block; the report names
 * the first.
 */
export function verifyTableFile(
  table: AsyncTable,
  file: string,
  opts: ParallelVerifyOptions,
): Promise<VerifyReport> {
  const maxReported = opts.maxReported ?? 10;
  return verifyTableSplit(
    table,
    (range, onProgress, signal) =>
      verifyRangeInWorker(
        { file, internalKeys: opts.internalKeys, ...range, maxReported },
        onProgress,
        signal,
      ),
    { ...opts, maxReported },
  );
}
