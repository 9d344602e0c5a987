import type { TableWriterHandle } from "../core/core-module.js";
import type { WasmHeap } from "../core/heap.js";
import type { Key } from "../core/keys.js";
import { WasmObject } from "../core/wasm-object.js";
import { coreComparator, type Comparator } from "./comparators.js";
import { throwComparatorFault } from "../core/comparator-faults.js";
import { SstFilterError } from "../core/errors.js";
import { checkLibraryFormat, type LibraryFormat } from "../core/library-format.js";

/** What `sf.createTableWriter` writes: the bytes RocksDB's SstFileWriter or LevelDB's TableBuilder would. */
export interface WriteOptions {
  /** "rocksdb": an .sst as SstFileWriter writes it; "leveldb": an .ldb as a bare TableBuilder does (user keys, puts only). */
  format: LibraryFormat;
  /**
   * The order of the keys, as the database's comparator: a built-in comparator's name, or
   * `{ name, compare }` (the name is recorded in `rocksdb.comparator`). Keys must ascend in it.
   * Default bytewise. A comparator of your own does not shorten index separators (as a RocksDB
   * comparator whose FindShortestSeparator does nothing).
   */
  comparator?: string | Comparator;
  /**
   * RocksDB block-based table format_version, 2 to 7 (default 5). 2 to 5 give what RocksDB
   * 7.8.3's SstFileWriter writes; 6 and 7 (read by RocksDB 8.6 and 10.4 on) what 11.9's does:
   * footer checksum, context checksums, its filter rules and property set.
   */
  formatVersion?: number;
  /**
   * formatVersion 6 and 7: the footer's `base_context_checksum` (non-zero 32 bits), which RocksDB
   * draws at random per file. Default: derived from the session identity and file number, so that
   * the same input gives the same file.
   */
  baseContextChecksum?: number;
  /** Default "none". RocksDB writes a full filter (or a partitioned one); LevelDB its filter block ("leveldb"). */
  filter?: "none" | "leveldb" | "rocksdb-legacy-bloom" | "rocksdb-bloom" | "rocksdb-ribbon";
  /** Default 10. */
  bitsPerKey?: number;
  /**
   * RocksDB, default false: `partition_filters`, filter partitions over a two-level index instead
   * of one full filter (cut together with the index's partitions, or apart from them: see
   * decouplePartitionedFilters).
   * Needs indexType "two-level", which it implies when indexType is not given.
   */
  partitionFilters?: boolean;
  /**
   * RocksDB: "binary-search" (one index block; the default without partitionFilters) or
   * "two-level" (`kTwoLevelIndexSearch`: index partitions of about metadataBlockSize bytes and a
   * top-level index over them; the default with partitionFilters).
   */
  indexType?: "binary-search" | "two-level";
  /** RocksDB, default 4096: `metadata_block_size`, the size at which index (and filter) partitions are cut. */
  metadataBlockSize?: number;
  /**
   * RocksDB formatVersion 6 and 7, default true (`decouple_partitioned_filters`, RocksDB 11's
   * default): filter partitions are cut by the hashes they hold, apart from the index partitions.
   * Older format versions always cut them together.
   */
  decouplePartitionedFilters?: boolean;
  /**
   * RocksDB formatVersion 6 and 7, default false (`separate_key_value_in_data_block`, RocksDB
   * 11.0): data blocks keep their values in a section apart from the keys, and the table records
   * rocksdb.separate.key.value.in.data.block = 1. RocksDB before 11 cannot read such tables.
   */
  separateKeyValueInDataBlock?: boolean;
  /** RocksDB: "fixed:N" or "capped:N"; the filter then holds prefixes too. */
  prefixExtractor?: string;
  /** RocksDB, default true: the filter holds whole keys. */
  wholeKeyFiltering?: boolean;
  /** "none" or "snappy" (default, as both libraries have it); RocksDB also "zlib", "bzip2", "lz4", "lz4hc", "zstd". */
  compression?: string;
  /**
   * RocksDB: "none", "crc32c", "xxhash", "xxhash64", "xxh3" (default, as SstFileWriter's);
   * LevelDB: "crc32c" (default, its only one).
   */
  checksum?: string;
  /** Default 4096. */
  blockSize?: number;
  /** Default 16. */
  restartInterval?: number;
  /**
   * RocksDB properties: the ones that carry an identity or a clock, by their names
   * (`rocksdb.creating.db.identity`, `rocksdb.creating.session.identity`,
   * `rocksdb.creating.host.identity`, and as decimal numbers `rocksdb.creation.time`,
   * `rocksdb.file.creation.time`, `rocksdb.oldest.key.time`, `rocksdb.newest.key.time`,
   * `rocksdb.original.file.number`), and
   * any of your own (stored as UTF-8, as a TablePropertiesCollector would add them).
   */
  properties?: Record<string, string>;
}

/**
 * Where `writeTo` / `finishTo` send a table: a WHATWG `WritableStream` (browsers, Node 18+, e.g.
 * from the File System Access API) or a Node `Writable` (`fs.createWriteStream`, a socket, an
 * HTTP response). Either stays open: closing it is the caller's.
 */
export type TableSink = WritableStream<Uint8Array> | NodeWritableLike;

/** The part of a Node `stream.Writable` the writer uses. */
export interface NodeWritableLike {
  /** Node's Writable.write: false asks to wait for "drain". */
  write(chunk: Uint8Array): boolean;
  /** Node's EventEmitter.once, to wait for "drain" or "error". */
  once(event: "drain" | "error", listener: (error?: unknown) => void): unknown;
  /** Node's EventEmitter.removeListener. */
  removeListener(event: "drain" | "error", listener: (error?: unknown) => void): unknown;
}

/** Hands `chunk` to `sink`; resolves when the sink takes more (backpressure), rejects on its error. */
async function send(sink: TableSink, chunk: Uint8Array): Promise<void> {
  if (typeof (sink as WritableStream<Uint8Array>).getWriter === "function") {
    const writer = (sink as WritableStream<Uint8Array>).getWriter();
    try {
      await writer.ready;
      await writer.write(chunk);
    } finally {
      writer.releaseLock();
    }
    return;
  }
  const node = sink as NodeWritableLike;
  if (node.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const onDrain = (): void => {
      node.removeListener("error", onError);
      resolve();
    };
    const onError = (error?: unknown): void => {
      node.removeListener("drain", onDrain);
      reject(error);
    };
    node.once("drain", onDrain);
    node.once("error", onError);
  });
}

const OPS = { put: 0, delete: 1, merge: 2, deleteRange: 3 } as const;

function optional<T>(value: T | undefined, type: string, name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== type)
    throw new SstFilterError("BAD_OPTIONS", `${name} must be a ${type}, got ${typeof value}`);
  return value;
}

function wholeNumber(value: number | undefined, name: string, fallback: number): number {
  const n = optional(value, "number", name, fallback);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new SstFilterError("BAD_OPTIONS", `${name} must be a whole number >= 0, got ${n}`);
  }
  return n;
}

function baseContextChecksum(value: number | undefined): number {
  const n = wholeNumber(value, "baseContextChecksum", 0);
  if (n > 0xffffffff || (value !== undefined && n === 0)) {
    throw new SstFilterError("BAD_OPTIONS", `baseContextChecksum must be 1 to 0xffffffff, got ${n}`);
  }
  return n;
}

/** The options with every field present and of its type, as the binding reads them. */
function normalize(opts: WriteOptions) {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      'createTableWriter needs options { format: "rocksdb" | "leveldb", ... }',
    );
  }
  checkLibraryFormat(opts.format);
  const partitionFilters = optional(opts.partitionFilters, "boolean", "partitionFilters", false);
  const indexType = optional<string>(
    opts.indexType,
    "string",
    "indexType",
    partitionFilters ? "two-level" : "binary-search",
  );
  const properties = optional(opts.properties, "object", "properties", {});
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(properties ?? {})) {
    if (typeof value !== "string") {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `property ${JSON.stringify(name)} must be a string, got ${typeof value}`,
      );
    }
    pairs.push([name, value]);
  }
  const bitsPerKey = optional(opts.bitsPerKey, "number", "bitsPerKey", 10);
  const comparator = coreComparator(opts.comparator);
  if (comparator.name === "" && comparator.compare !== null) {
    throw new SstFilterError("BAD_OPTIONS", "a writer's comparator needs its name: { name, compare }");
  }
  return {
    comparator: comparator.name,
    compare: comparator.compare,
    format: opts.format,
    formatVersion: Math.min(wholeNumber(opts.formatVersion, "formatVersion", 5), 0xffffffff),
    filter: optional(opts.filter, "string", "filter", "none"),
    bitsPerKey,
    prefixExtractor: optional(opts.prefixExtractor, "string", "prefixExtractor", ""),
    wholeKeyFiltering: optional(opts.wholeKeyFiltering, "boolean", "wholeKeyFiltering", true),
    compression: optional(opts.compression, "string", "compression", "snappy"),
    checksum: optional(opts.checksum, "string", "checksum", ""),
    blockSize: wholeNumber(opts.blockSize, "blockSize", 4096),
    restartInterval: Math.min(wholeNumber(opts.restartInterval, "restartInterval", 16), 0xffffffff),
    indexType,
    partitionFilters,
    metadataBlockSize: wholeNumber(opts.metadataBlockSize, "metadataBlockSize", 4096),
    decouplePartitionedFilters: optional(
      opts.decouplePartitionedFilters,
      "boolean",
      "decouplePartitionedFilters",
      true,
    ),
    separateKeyValueInDataBlock: optional(
      opts.separateKeyValueInDataBlock,
      "boolean",
      "separateKeyValueInDataBlock",
      false,
    ),
    baseContextChecksum: baseContextChecksum(opts.baseContextChecksum),
    properties: pairs,
  };
}

/**
 * Writes one table. Keys ascend strictly (put, delete and merge share the order; deleteRange
 * takes any order); a key out of order is BAD_KEY naming its position, and the writer then stays
 * failed. Finished bytes wait in the writer until taken: call takeOutput() now and then to stream
 * a file larger than memory, or just finish() for the whole file at once.
 */
export class TableWriter extends WasmObject<TableWriterHandle> {
  private readonly writerAddress: number;

  /** @internal */
  constructor(
    private readonly heap: WasmHeap,
    handle: TableWriterHandle,
  ) {
    super(handle, "table writer");
    this.writerAddress = handle.writerAddress();
  }

  /** Adds a value for `key`, which must come after the keys added before (the table's order). */
  put(key: Key, value: Key): void {
    this.add(OPS.put, key, value);
  }

  /** Adds a deletion of `key` (a tombstone), in the table's order. */
  delete(key: Key): void {
    this.add(OPS.delete, key, "");
  }

  /** Adds a merge operand for `key`, in the table's order. */
  merge(key: Key, value: Key): void {
    this.add(OPS.merge, key, value);
  }

  /** RocksDB: deletes the keys in [start, end). */
  deleteRange(start: Key, end: Key): void {
    this.add(OPS.deleteRange, start, end);
  }

  /** The bytes finished since the last call (the file is all of them in order). */
  takeOutput(): Uint8Array {
    return this.live().takeOutput();
  }

  /** Ends the table; returns every byte not taken yet (the whole file when takeOutput was never called). */
  finish(): Uint8Array {
    const handle = this.live();
    if (!handle.finish()) throw this.heap.lastError();
    return handle.takeOutput();
  }

  /**
   * Sends the finished bytes waiting, when there are at least `minBytes` of them (default 1 MiB;
   * 0: whatever there is), to `sink` and resolves once the sink takes more. Calling it now and
   * then between puts streams a table of any size in bounded memory:
   * `w.put(k, v); if (w.pendingBytes >= 1 << 20) await w.writeTo(sink);`.
   */
  async writeTo(sink: TableSink, minBytes = 1 << 20): Promise<void> {
    if (this.pendingBytes === 0 || this.pendingBytes < minBytes) return;
    await send(sink, this.takeOutput());
  }

  /** Ends the table (as finish()) and sends what was not taken yet to `sink`, which stays open. */
  async finishTo(sink: TableSink): Promise<void> {
    const rest = this.finish();
    if (rest.length > 0) await send(sink, rest);
  }

  /** Bytes waiting to be taken. */
  get pendingBytes(): number {
    this.live();
    return this.heap.module._sstfilter_table_writer_pending(this.writerAddress) >>> 0;
  }

  /** Bytes of the file produced so far, taken or not. */
  get fileSize(): number {
    return this.live().fileSize();
  }

  /** Entries added so far. */
  get entries(): number {
    return this.live().entries();
  }

  private add(op: number, key: Key, value: Key): void {
    this.live();
    const [ptr, keySize, valueSize] = this.heap.putPair(key, value);
    const module = this.heap.module;
    const added = module._sstfilter_table_writer_add(
      this.writerAddress,
      op,
      ptr,
      keySize,
      ptr + keySize,
      valueSize,
    );
    throwComparatorFault();
    if (!added) throw this.heap.lastError();
  }
}

/** A table writer over the core's RocksDB or LevelDB table builder (sf.createTableWriter). */
export function createTableWriter(heap: WasmHeap, opts: WriteOptions): TableWriter {
  const handle = heap.module.createTableWriter(normalize(opts));
  if (handle === null) throw heap.lastError();
  return new TableWriter(heap, handle);
}
