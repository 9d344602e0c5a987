// Walks over a table's data blocks: the core's cursor gathers a batch of blocks at a time (keys,
// entries or scan text; wasm/table_bindings.cc), the I/O driver (ts/core/io-driver.ts) feeding it
// the file's bytes from memory (sync) or from a ByteSource (async). Each walk has a sync and an
// async form: the table's faces (table-faces.ts) take theirs.
import type { TableCursorHandle, TableHandle } from "../core/core-module.js";
import type { ByteSource } from "../core/byte-sources.js";
import { SstFilterError } from "../core/errors.js";
import type { WasmHeap } from "../core/heap.js";
import { runAsync, runSync } from "../core/io-driver.js";
import type { DataBlockKeys, FilterCheckBatch, ScanTextOptions, TableKeyBatch } from "./table-types.js";

/** The data blocks of a batch, each with its keys split out. */
function* splitBlocks({ data, offsets, blocks }: TableKeyBatch): Generator<DataBlockKeys> {
  let key = 0;
  for (let b = 0; b < blocks.length; b += 3) {
    const end = blocks[b + 2]!;
    const keys = new Array<Uint8Array>(end - key);
    for (let i = 0; key < end; i++, key++) keys[i] = data.subarray(offsets[key], offsets[key + 1]);
    yield { offset: blocks[b]!, size: blocks[b + 1]!, keys };
  }
}

/** @internal The data blocks of a walk's batches, each with its keys split out. */
export function* blocksOf(batches: Iterable<TableKeyBatch>): Generator<DataBlockKeys> {
  for (const batch of batches) yield* splitBlocks(batch);
}

/** @internal blocksOf over an async walk. */
export async function* blocksOfAsync(batches: AsyncIterable<TableKeyBatch>): AsyncGenerator<DataBlockKeys> {
  for await (const batch of batches) yield* splitBlocks(batch);
}

/** @internal The items of a walk's batches, one at a time. */
export function* flatten<T>(batches: Iterable<T[]>): Generator<T> {
  for (const batch of batches) yield* batch;
}

/** @internal flatten over an async walk. */
export async function* flattenAsync<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/**
 * @internal Walks the batches of a table whose bytes are in memory, yielding what `take` makes of
 * each; frees the cursor at the end.
 */
export function* walkBatches<Batch>(
  heap: WasmHeap,
  cursor: TableCursorHandle,
  bytes: Uint8Array,
  take: (cursor: TableCursorHandle) => Batch,
): Generator<Batch> {
  try {
    for (;;) {
      runSync(heap, cursor, bytes);
      if (cursor.atEnd()) return;
      yield take(cursor);
    }
  } finally {
    cursor.delete();
  }
}

/** @internal walkBatches over a source. */
export async function* walkBatchesAsync<Batch>(
  heap: WasmHeap,
  cursor: TableCursorHandle,
  source: ByteSource,
  take: (cursor: TableCursorHandle) => Batch,
): AsyncGenerator<Batch> {
  try {
    for (;;) {
      await runAsync(heap, cursor, source);
      if (cursor.atEnd()) return;
      yield take(cursor);
    }
  } finally {
    cursor.delete();
  }
}

/** @internal A walk's batch as packed keys. */
export const takeKeys = (cursor: TableCursorHandle): TableKeyBatch => cursor.takeKeys();

/** @internal Takes a batch as scan text, handing its standard-error lines to `output.onErrorText`. */
export function scanTextTaker(output: ScanTextOptions): (cursor: TableCursorHandle) => Uint8Array {
  const hex = output.hex === true;
  const escape = output.escape === true;
  const decodeBlobIndex = output.decodeBlobIndex === true;
  return (cursor) => {
    const { out, errors } = cursor.takeScanText(hex, escape, decodeBlobIndex);
    if (errors.length > 0) output.onErrorText?.(errors);
    return out;
  };
}

/**
 * @internal Probes the keys of the batch `cursor` holds against the table's filter without handing them to
 * JavaScript (only the ruled-out ones come out), then drops them. A filter this library cannot
 * probe turns probing off (`state.probe`) and says why.
 */
export function checkBatch(
  heap: WasmHeap,
  table: TableHandle,
  state: { probe: boolean },
  cursor: TableCursorHandle,
): FilterCheckBatch {
  const keys = cursor.keyCount();
  const ruledOut: FilterCheckBatch["ruledOut"] = [];
  let unprobed: string | null = null;
  if (state.probe && keys > 0) {
    const at = heap.scratch(keys);
    if (table.mayContainCursorKeys(cursor, at)) {
      const answers = heap.bytes.subarray(at, at + keys);
      for (let i = answers.indexOf(0); i >= 0; i = answers.indexOf(0, i + 1)) {
        ruledOut.push({ index: i, key: cursor.key(i) });
      }
    } else {
      const error = heap.lastError();
      if (!(error instanceof SstFilterError) || error.code !== "UNSUPPORTED") throw error;
      state.probe = false;
      unprobed = error.message;
    }
  }
  return { blocks: cursor.takeBlocks(), keys, ruledOut, unprobed };
}

const NO_OFFSETS = new Uint32Array(1);

/**
 * The user keys of a walk, a batch of data blocks at a time. A plain iterator rather than a
 * generator: a key walk does little else per key, and a generator's per-key cost would dominate
 * it (an async generator's most of all). Each key is a view of the batch's copy out of the core's
 * memory, which no later batch reuses: keys stay valid after the walk moves on.
 */
abstract class KeyWalk {
  // The batch in hand, as the fields each key reads: a view made with the Uint8Array constructor
  // over `buffer` costs less than data.subarray, which looks up the species constructor per call.
  private buffer: ArrayBufferLike = new ArrayBuffer(0);
  private base = 0;
  private offsets: Uint32Array = NO_OFFSETS;
  protected index = 0;
  protected count = 0;
  private finished = false;

  constructor(protected readonly cursor: TableCursorHandle) {}

  /** The next key of the batch in hand; the caller checked there is one. */
  protected take(): IteratorResult<Uint8Array> {
    const i = this.index++;
    const from = this.offsets[i]!;
    return { done: false, value: new Uint8Array(this.buffer, this.base + from, this.offsets[i + 1]! - from) };
  }

  /** Takes the batch the cursor gathered; false (and the cursor freed) at the end. */
  protected adopt(): boolean {
    if (this.cursor.atEnd()) {
      this.finish();
      return false;
    }
    const { data, offsets } = this.cursor.takeKeys();
    this.buffer = data.buffer;
    this.base = data.byteOffset;
    this.offsets = offsets;
    this.index = 0;
    this.count = offsets.length - 1;
    return true;
  }

  /** Ends the walk (once): drops the batch in hand and frees the cursor. */
  protected finish(): IteratorResult<Uint8Array> {
    if (!this.finished) {
      this.finished = true;
      this.buffer = new ArrayBuffer(0);
      this.offsets = NO_OFFSETS;
      this.index = this.count = 0;
      this.cursor.delete();
    }
    return { done: true, value: undefined };
  }

  protected get ended(): boolean {
    return this.finished;
  }
}

/** @internal The user keys of a walk over bytes in memory. */
export class SyncKeyWalk extends KeyWalk implements IterableIterator<Uint8Array> {
  constructor(
    cursor: TableCursorHandle,
    private readonly heap: WasmHeap,
    private readonly bytes: Uint8Array,
  ) {
    super(cursor);
  }

  /** The next key, reading the next batch when the one in hand is used up. */
  next(): IteratorResult<Uint8Array> {
    while (this.index >= this.count) {
      if (this.ended) return this.finish();
      try {
        runSync(this.heap, this.cursor, this.bytes);
      } catch (error) {
        this.finish();
        throw error;
      }
      if (!this.adopt()) return this.finish();
    }
    return this.take();
  }

  /** Ends the walk early (a `break` out of `for...of`), freeing the cursor. */
  return(): IteratorResult<Uint8Array> {
    return this.finish();
  }

  /** The walk itself: it is its own iterator. */
  [Symbol.iterator](): IterableIterator<Uint8Array> {
    return this;
  }
}

/** @internal The user keys of a walk over a source. */
export class AsyncKeyWalk extends KeyWalk implements AsyncIterableIterator<Uint8Array> {
  constructor(
    cursor: TableCursorHandle,
    private readonly heap: WasmHeap,
    private readonly source: ByteSource,
  ) {
    super(cursor);
  }

  // The read of the next batch while it runs. next() calls made meanwhile wait for it, in the order
  // they came, as an async generator queues them: the cursor serves one read at a time.
  private loading: Promise<void> | null = null;

  /** A key of the batch in hand without an async function's frame per key; else the next batch's. */
  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.index < this.count) return Promise.resolve(this.take());
    // After a read, whatever became of it: its error went to the call that started it.
    if (this.loading !== null) return this.loading.then(this.nextAfter, this.nextAfter);
    if (this.ended) return Promise.resolve(this.finish());
    this.loading = this.load();
    return this.loading.then(this.nextAfter);
  }

  private readonly nextAfter = (): Promise<IteratorResult<Uint8Array>> => this.next();

  /** Reads and adopts the next batch (none at the end); an error ends the walk. */
  private async load(): Promise<void> {
    try {
      await runAsync(this.heap, this.cursor, this.source);
      this.adopt();
    } catch (error) {
      this.finish();
      throw error;
    } finally {
      this.loading = null;
    }
  }

  /** Ends the walk early (a `break` out of `for await...of`), freeing the cursor. */
  async return(): Promise<IteratorResult<Uint8Array>> {
    // The cursor is freed only once a read it serves is over.
    if (this.loading !== null) await this.loading.catch(() => undefined);
    return this.finish();
  }

  /** The walk itself: it is its own iterator. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this;
  }
}
