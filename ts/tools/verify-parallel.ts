// Verifies a table file on several threads (Node's worker_threads), as `sstfilter verify --jobs`
// does: the data blocks split by offset into contiguous ranges, one per thread (the first and the
// meta blocks on this thread; verify-worker.ts opens the file itself and verifies a range), and the
// reports merged as one walk would have made them (mergeVerifyReports).
import { Worker } from "node:worker_threads";

import { SstFilterError, type SstFilterErrorCode } from "../api/errors.js";
import type { AsyncTable } from "../api/table.js";
import {
  dataEnd,
  mergeVerifyReports,
  verifyTable,
  type VerifyOptions,
  type VerifyProgress,
  type VerifyReport,
} from "./verify.js";

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

function verifyRange(
  input: VerifyWorkerInput,
  onProgress: (p: VerifyProgress) => void,
): Promise<VerifyReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./verify-worker.js", import.meta.url), { workerData: input });
    let settled = false;
    worker.on("message", (message: VerifyWorkerMessage) => {
      if ("progress" in message) {
        onProgress(message.progress);
      } else {
        settled = true;
        if ("report" in message) resolve(message.report);
        else {
          const { code, message: text, offset } = message.error;
          reject(code === null ? new Error(text) : new SstFilterError(code, text, offset));
        }
      }
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (!settled) reject(new Error(`verify worker exited with ${code}`));
    });
  });
}

// What a further verify thread costs beyond the table's index and filter, which it opens again: a
// Node isolate with the module (about 30 MB of resident memory, measured on Node 20).
const WORKER_BASELINE_BYTES = 32 << 20;
// The most further threads may add to a verification's memory by default, and the least data each
// thread must have to pay for its start-up (tens of milliseconds).
const DEFAULT_EXTRA_MEMORY_BYTES = 64 << 20;
const DEFAULT_MIN_DATA_PER_THREAD = 64 << 20;

/**
 * The threads `sstfilter verify` uses unless told: one per core, while each has at least 64 MiB of
 * data blocks and the further threads together stay under 64 MiB of memory (each holds its own
 * copy of the table's index and filter). A 2 GB table's index and filter alone exceed that, so
 * verifying one stays on one thread and within its bounded memory.
 */
export function defaultVerifyJobs(table: AsyncTable, cores: number): number {
  const index = table.properties["rocksdb.index.size"];
  const indexBytes = typeof index === "number" ? index : table.footer.indexHandle[1];
  const perThread = WORKER_BASELINE_BYTES + indexBytes + (table.filter?.sizeBytes ?? 0);
  const byMemory = 1 + Math.floor(DEFAULT_EXTRA_MEMORY_BYTES / perThread);
  const byData = Math.max(1, Math.floor(dataEnd(table) / DEFAULT_MIN_DATA_PER_THREAD));
  return Math.max(1, Math.min(cores, byMemory, byData));
}

/**
 * verifyTable over `table` (opened from `file`), its data blocks split between up to `jobs`
 * threads. Each range stops at its own first failing block; the report names the first.
 */
export async function verifyTableFile(
  table: AsyncTable,
  file: string,
  opts: ParallelVerifyOptions,
): Promise<VerifyReport> {
  const end = dataEnd(table);
  const jobs = Math.max(1, opts.jobs);
  const maxReported = opts.maxReported ?? 10;
  if (jobs === 1) return verifyTable(table, opts);
  const latest: VerifyProgress[] = [];
  const onProgress = (i: number, p: VerifyProgress): void => {
    latest[i] = p;
    const sum = (key: keyof VerifyProgress): number => latest.reduce((n, q) => n + (q?.[key] ?? 0), 0);
    opts.onProgress?.({
      bytesDone: sum("bytesDone"),
      bytesTotal: end,
      dataBlocks: sum("dataBlocks"),
      keys: sum("keys"),
    });
  };
  const bounds = (i: number): { from: number; to: number } => ({
    from: Math.round((end * i) / jobs),
    to: Math.round((end * (i + 1)) / jobs),
  });
  // This thread takes the first range with the meta blocks, while jobs - 1 workers start up and
  // take the others: a worker costs a Node isolate, the module and an open table of its own.
  const reports = await Promise.all([
    verifyTable(table, { range: bounds(0), maxReported, onProgress: (p) => onProgress(0, p) }),
    ...Array.from({ length: jobs - 1 }, (_, w) =>
      verifyRange({ file, internalKeys: opts.internalKeys, ...bounds(w + 1), maxReported }, (p) =>
        onProgress(w + 1, p),
      ),
    ),
  ]);
  return mergeVerifyReports(reports, maxReported);
}
