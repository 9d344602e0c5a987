// Verifies a table file on several threads (Node's worker_threads), as `sstfilter verify --jobs`
// does: verifyTableSplit shares the data blocks out, and verify-worker.ts opens the file itself
// and verifies the ranges it is given. db.verify runs whole tables in the same workers
// (ts/api/db-verify.ts). No import.meta here: the CommonJS build reaches this file too, so callers
// say where the worker's script lies (NodeSstFilter.verifyWorkerSetup).
import { Worker } from "node:worker_threads";

import { SstFilterError, type SstFilterErrorCode } from "../core/errors.js";
import type { AsyncTable } from "../api/table.js";
import type { CompiledCore } from "./node-wasm.js";
import {
  verifyTableSplit,
  type RangeVerifyThread,
  type VerifyOptions,
  type VerifyProgress,
  type VerifyReport,
} from "../api/table-verify.js";

/** What verify-worker.ts is given, one message per verification. */
export interface VerifyWorkerInput {
  file: string;
  internalKeys: boolean;
  /** A built-in comparator the table was opened with (`t.order.source` "supplied"). */
  comparator?: string;
  /** The comparator the database's MANIFEST names for the table (OpenTableOptions). */
  manifestComparator?: string;
  from: number;
  to: number;
  maxReported: number;
  /** Whether the meta blocks are checked too, for a whole table verified there. Default false. */
  metaBlocks?: boolean;
}

/** What verify-worker.ts posts: progress, then its report or the error it stopped with. */
export type VerifyWorkerMessage =
  | { progress: VerifyProgress }
  | { report: VerifyReport }
  | { error: { code: SstFilterErrorCode | null; message: string; offset: number | undefined } };

/** What a verify worker runs: verify-worker.js (its URL or path) on the core compiled here. */
export interface VerifyWorkerSetup {
  script: URL | string;
  core: CompiledCore;
}

/** verifyTable's options for a table shared between worker threads. */
export interface ParallelVerifyOptions extends Pick<VerifyOptions, "onProgress" | "maxReported"> {
  /** Threads to use (1: verify here, without workers). */
  jobs: number;
  /** As the table was opened with. */
  internalKeys: boolean;
  worker: VerifyWorkerSetup;
  /**
   * Workers started beforehand (while the table opened), used before any new one is started; the
   * verification closes those it uses, the caller those left in the array.
   */
  started?: VerifyWorker[];
}

interface Running {
  resolve(report: VerifyReport): void;
  reject(error: unknown): void;
  onProgress(p: VerifyProgress): void;
  signal: AbortSignal | undefined;
  abort(): void;
}

/**
 * A worker of verify-worker.js that verifies one range (or whole table) after another: `verify
 * --jobs` keeps one per thread for its ranges, db.verify for its tables, as a worker's start-up
 * costs tens of milliseconds. An abort terminates it; close() when done.
 */
export class VerifyWorker {
  readonly #worker: Worker;
  #running: Running | null = null;
  #exited: Error | null = null;

  constructor(setup: VerifyWorkerSetup) {
    // The compiled Module is cloned to the worker without recompiling (node-wasm.ts).
    this.#worker = new Worker(setup.script, { workerData: setup.core });
    this.#worker.on("message", (message: VerifyWorkerMessage) => {
      const running = this.#running;
      if (running === null) return;
      if ("progress" in message) {
        running.onProgress(message.progress);
        return;
      }
      this.#settle();
      if ("report" in message) running.resolve(message.report);
      else {
        const { code, message: text, offset } = message.error;
        running.reject(code === null ? new Error(text) : new SstFilterError(code, text, offset));
      }
    });
    this.#worker.on("error", (error) => {
      this.#exited = error;
      const running = this.#running;
      this.#settle();
      running?.reject(error);
    });
    this.#worker.on("exit", (code) => {
      this.#exited ??= new Error(`verify worker exited with ${code}`);
      const running = this.#running;
      this.#settle();
      running?.reject(this.#exited);
    });
  }

  #settle(): void {
    const running = this.#running;
    this.#running = null;
    running?.signal?.removeEventListener("abort", running.abort);
  }

  /** Verifies `input` there: resolves with the report; rejects as verifyTable would, or on abort. */
  verify(
    input: VerifyWorkerInput,
    onProgress: (p: VerifyProgress) => void,
    signal: AbortSignal | undefined,
  ): Promise<VerifyReport> {
    if (this.#exited !== null) return Promise.reject(this.#exited);
    if (this.#running !== null) return Promise.reject(new Error("the verify worker is busy"));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const abort = (): void => {
        this.#settle();
        reject(signal?.reason);
        this.close();
      };
      this.#running = { resolve, reject, onProgress, signal, abort };
      signal?.addEventListener("abort", abort, { once: true });
      this.#worker.postMessage(input);
    });
  }

  /** Ends the worker thread. */
  close(): void {
    this.#exited ??= new Error("the verify worker is closed");
    void this.#worker.terminate();
  }
}

/**
 * verifyTable over `table` (opened from `file`), its data blocks shared out in ranges between this
 * thread and up to `jobs - 1` workers (verifyTableSplit). The report names the first failing block.
 */
export function verifyTableFile(
  table: AsyncTable,
  file: string,
  opts: ParallelVerifyOptions,
): Promise<VerifyReport> {
  const maxReported = opts.maxReported ?? 10;
  const startThread = (): RangeVerifyThread => {
    const worker = opts.started?.shift() ?? new VerifyWorker(opts.worker);
    return {
      verify: (range, onProgress, signal) =>
        worker.verify(
          {
            file,
            internalKeys: opts.internalKeys,
            ...(table.order.source === "supplied" ? { comparator: table.order.comparator } : {}),
            ...range,
            maxReported,
          },
          onProgress,
          signal,
        ),
      close: () => worker.close(),
    };
  };
  return verifyTableSplit(table, startThread, { ...opts, maxReported });
}
