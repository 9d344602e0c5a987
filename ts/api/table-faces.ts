// A table answers in one of two ways, its face: a Table at once, reading the file's bytes in memory;
// an AsyncTable with promises, reading a ByteSource as the core asks. The table's operations are
// written once (TableReader, table.ts) over a face, which says how the core's operations are run
// (the I/O driver, ts/core/io-driver.ts) and how its walks go (table-walks.ts).
import type { ByteSource } from "../core/byte-sources.js";
import type { IoHandle, TableCursorHandle } from "../core/core-module.js";
import type { WasmHeap } from "../core/heap.js";
import { runAsync, runSync } from "../core/io-driver.js";
import type { DataBlockKeys, TableKeyBatch } from "./table-types.js";
import {
  AsyncKeyWalk,
  SyncKeyWalk,
  blocksOf,
  blocksOfAsync,
  flatten,
  flattenAsync,
  walkBatches,
  walkBatchesAsync,
} from "./table-walks.js";

/** @internal How a table answers: "sync" at once (Table), "async" with promises (AsyncTable). */
export type FaceKind = "sync" | "async";

/** @internal An answer of type T as each face gives it. */
export interface Answers<T> {
  sync: T;
  async: Promise<T>;
}

/** @internal A walk over T's as each face gives it. */
export interface Walks<T> {
  sync: IterableIterator<T>;
  async: AsyncIterableIterator<T>;
}

/** @internal What a face does for a table's operations. */
export interface TableFace<F extends FaceKind> {
  /** What `answer` returns (async: a promise of it, rejected with what it throws). */
  now<T>(answer: () => T): Answers<T>[F];
  /** Runs the core's operation `start` makes to its end, answers from it, then frees it. */
  run<Op extends IoHandle, T>(start: () => Op, answer: (op: Op) => T): Answers<T>[F];
  /** What `take` makes of each batch of `cursor`'s walk; the cursor is freed at the end. */
  batches<B>(cursor: TableCursorHandle, take: (cursor: TableCursorHandle) => B): Walks<B>[F];
  /** The user keys of `cursor`'s walk, one at a time. */
  keys(cursor: TableCursorHandle): Walks<Uint8Array>[F];
  /** The items of a walk's batches, one at a time. */
  flatten<T>(batches: Walks<T[]>[F]): Walks<T>[F];
  /** The data blocks of a key walk's batches, each with its keys. */
  blocks(batches: Walks<TableKeyBatch>[F]): Walks<DataBlockKeys>[F];
}

/** @internal A Table's face: every answer at once, from `bytes`, the whole file. */
export function syncFace(heap: WasmHeap, bytes: Uint8Array): TableFace<"sync"> {
  return {
    now: (answer) => answer(),
    run(start, answer) {
      const op = start();
      try {
        runSync(heap, op, bytes);
        return answer(op);
      } finally {
        op.delete();
      }
    },
    batches: (cursor, take) => walkBatches(heap, cursor, bytes, take),
    keys: (cursor) => new SyncKeyWalk(cursor, heap, bytes),
    flatten,
    blocks: blocksOf,
  };
}

/** @internal An AsyncTable's face: every answer a promise, the bytes read from `source`. */
export function asyncFace(heap: WasmHeap, source: ByteSource): TableFace<"async"> {
  return {
    now: async (answer) => answer(),
    async run(start, answer) {
      const op = start();
      try {
        await runAsync(heap, op, source);
        return answer(op);
      } finally {
        op.delete();
      }
    },
    batches: (cursor, take) => walkBatchesAsync(heap, cursor, source, take),
    keys: (cursor) => new AsyncKeyWalk(cursor, heap, source),
    flatten: flattenAsync,
    blocks: blocksOfAsync,
  };
}
