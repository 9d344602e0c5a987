import type { CoreModule } from "../core/core-module.js";
import { SstFilterError } from "../core/errors.js";
import { checkLibraryFormat, type LibraryFormat } from "../core/library-format.js";
import { Filter, LevelDbFilterBlock } from "./filters.js";
import { makeHashes, type Hashes } from "./hash.js";
import { WasmHeap } from "../core/heap.js";
import { formatScanLines, type Entry } from "./entries.js";
import {
  decodeBlobIndex,
  decodeEmbeddedBlobStats,
  decodeWideColumns,
  type BlobIndex,
  type EmbeddedBlobStats,
  type WideColumn,
} from "./values.js";
import { packKeys, type Key, type KeyBatch } from "../core/keys.js";
import { createTableWriter, type TableWriter, type WriteOptions } from "./table-writer.js";
import { verifySourceDatabase, type DatabaseVerifyOptions, type DatabaseVerifyReport } from "./db-verify.js";
import { databaseSourceOf } from "./db-source.js";
import { openDatabase, type Database } from "./db.js";
import type { DatabaseSource, OpenDatabaseOptions } from "./db-types.js";
import {
  DecoderRegistry,
  decodedRecords,
  detectStore,
  readLocalStorage,
  readSessionStorage,
  type DecodedRecord,
  type DecodedRecordsOptions,
  type DecoderOption,
  type LocalStorageOrigin,
  type RecordDecoder,
  type SessionStorageArea,
  type StoreKind,
} from "./decoders.js";
import { readIndexedDb, type IndexedDbDatabase, type ReadIndexedDbOptions } from "./indexeddb.js";
import { readWriteAheadLog, type ReadWriteAheadLogOptions, type WalFile } from "./wal.js";
import type { ByteSource } from "../core/byte-sources.js";
import { httpSource, type HttpSourceOptions } from "./http-source.js";
import {
  httpDatabaseSource,
  type HttpDatabaseOptions,
  type HttpDatabaseSource,
} from "./http-database-source.js";
import { openTable, openTableFrom, type AsyncTable, type Table } from "./table.js";
import type { OpenTableOptions, ScanTextOptions } from "./table-types.js";
import { diffDatabases, type DatabaseDiff, type DiffDatabasesOptions } from "./database-diff.js";
import { diffTables, type DiffServices, type DiffTablesOptions, type TableDiff } from "./table-diff.js";
import { compareFunctionFor } from "./comparators.js";

/** Which wasm module `init` loaded: SIMD128 where the runtime validates it, else the portable one. */
export type Backend = "wasm-simd128" | "wasm-scalar";

/** What buildFilter builds: the filter family and the bits per key, as the database's own policy takes them. */
export type BuildOptions =
  | { format: "leveldb"; bitsPerKey: number } // leveldb.BuiltinBloomFilter2
  | { format: "rocksdb-legacy-bloom"; bitsPerKey: number } // full filter, format_version < 5
  | { format: "rocksdb-bloom"; bitsPerKey: number } // FastLocalBloom, format_version >= 5
  | { format: "rocksdb-ribbon"; bitsPerKey: number }; // Standard128Ribbon

/** The filter families buildFilter writes. */
export type FilterFormat = BuildOptions["format"];

/** What buildFilters builds: one format at each of several bits per key. */
export interface BuildManyOptions {
  format: FilterFormat;
  bitsPerKey: number[];
  /**
   * "rocksdb-ribbon" only: false builds the Ribbon filter also where RocksDB's builder writes a
   * FastLocalBloom instead (under 1024 slots, a few hundred keys, where that is smaller), and
   * throws UNSUPPORTED where no Ribbon filter can be built. Default true: RocksDB's bytes.
   */
  bloomFallback?: boolean;
}

/** The filter formats with more than one probe kernel (scalar, SIMD128). */
export type KernelFamily = "fastLocalBloom" | "ribbon";
/** Per kernel family, the kernels the module has and the one in use. */
export type KernelInfo = Record<KernelFamily, { available: string[]; active: string }>;

/** How openFilter reads filter bytes: LevelDB's carry no marker, so the family is said. */
export interface OpenFilterOptions {
  /** "rocksdb" (default) detects the kind from the metadata trailer as RocksDB does. */
  format?: LibraryFormat;
}

/** One data block of a LevelDB table: its file offset and the user keys it holds. */
export interface LevelDbDataBlock {
  offset: number;
  /**
   * The block's size without its 5-byte trailer, as `t.dataBlocks()` reports it. LevelDB starts
   * the next filter range at the end of each block it writes, so the last block's size decides
   * how many empty filters the stored block ends with; give it to reproduce a table's block.
   */
  size?: number;
  keys: Iterable<Key>;
}

/** The loaded library: everything works synchronously once `init()` resolved. */
export class SstFilter {
  readonly backend: Backend;
  readonly hash: Hashes;
  /** @internal */
  protected readonly heap: WasmHeap;
  readonly #decoders: DecoderRegistry;

  /** @internal */
  constructor(module: CoreModule, backend: Backend) {
    this.backend = backend;
    this.heap = new WasmHeap(module);
    this.hash = makeHashes(this.heap);
    this.#decoders = new DecoderRegistry(this.heap);
  }

  /**
   * The probe kernels this module has, per filter family, and the one in use. Meant for tests and
   * benchmarks: selecting a kernel affects every filter of this module; all give the same answers.
   */
  kernels(): KernelInfo {
    const m = this.heap.module;
    const { fastLocalBloom, ribbon } = this.heap.constants.kernelFamilies;
    return {
      fastLocalBloom: {
        available: m.availableKernels(fastLocalBloom),
        active: m.activeKernel(fastLocalBloom),
      },
      ribbon: { available: m.availableKernels(ribbon), active: m.activeKernel(ribbon) },
    };
  }

  /** Makes `name` the active kernel of a family (see kernels()). */
  selectKernel(family: KernelFamily, name: string): void {
    const families = this.heap.constants.kernelFamilies;
    const ok = Object.hasOwn(families, family) && this.heap.module.selectKernel(families[family], name);
    if (!ok)
      throw new SstFilterError("BAD_OPTIONS", `no ${family} kernel named ${JSON.stringify(name)} here`);
  }

  /** Packs keys into one KeyBatch (strings as UTF-8). */
  packKeys(keys: Iterable<Key>): KeyBatch {
    return packKeys(keys);
  }

  /** The exact bytes LevelDB / RocksDB store for these keys, added in this order. */
  buildFilter(keys: Iterable<Key> | KeyBatch, opts: BuildOptions): Uint8Array {
    if (opts === null || typeof opts !== "object") {
      throw new SstFilterError("BAD_OPTIONS", "buildFilter needs options { format, bitsPerKey }");
    }
    const format = this.#filterFormatCode(opts.format);
    if (typeof opts.bitsPerKey !== "number") {
      throw new SstFilterError("BAD_OPTIONS", `bitsPerKey must be a number, got ${typeof opts.bitsPerKey}`);
    }
    const bitsPerKey = opts.bitsPerKey;
    return this.#built(keys, "buildFilter", (at) =>
      this.heap.module.buildFilter(format, bitsPerKey, at.data, at.dataSize, at.offsets, at.count),
    );
  }

  /**
   * buildFilter at each of `bitsPerKey` (element i for bitsPerKey[i], the same bytes) for less
   * than one build each: the keys cross into wasm once, RocksDB's FastLocalBloom and Ribbon hash
   * them once, and Ribbon bands them once (only its solution's width depends on the bits per key).
   */
  buildFilters(keys: Iterable<Key> | KeyBatch, opts: BuildManyOptions): Uint8Array[] {
    if (opts === null || typeof opts !== "object") {
      throw new SstFilterError("BAD_OPTIONS", "buildFilters needs options { format, bitsPerKey: [...] }");
    }
    const format = this.#filterFormatCode(opts.format);
    if (!Array.isArray(opts.bitsPerKey) || !opts.bitsPerKey.every((b) => typeof b === "number")) {
      throw new SstFilterError("BAD_OPTIONS", "bitsPerKey must be an array of numbers");
    }
    const bitsPerKey = opts.bitsPerKey;
    const bloomFallback = opts.bloomFallback ?? true;
    if (typeof bloomFallback !== "boolean") {
      throw new SstFilterError("BAD_OPTIONS", "bloomFallback must be a boolean");
    }
    return this.#built(keys, "buildFilters", (at) =>
      this.heap.module.buildFilters(
        format,
        bitsPerKey,
        bloomFallback,
        at.data,
        at.dataSize,
        at.offsets,
        at.count,
      ),
    );
  }

  /** What `build` makes of `keys` put into wasm memory for `caller`; its failure (null) thrown. */
  #built<T>(
    keys: Iterable<Key> | KeyBatch,
    caller: string,
    build: (at: ReturnType<WasmHeap["putKeys"]>) => T | null,
  ): T {
    const out = build(this.heap.putKeys(keys, caller));
    if (out === null) throw this.heap.lastError();
    return out;
  }

  // The module's code of a buildFilter format name.
  #filterFormatCode(format: unknown): number {
    const formats = this.heap.constants.filterFormats;
    if (typeof format !== "string" || !Object.hasOwn(formats, format)) {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `format must be one of ${Object.keys(formats).join(", ")}, got ${String(format)}`,
      );
    }
    return formats[format as FilterFormat];
  }

  /** Opens filter bytes for probing. The bytes are copied; the caller may reuse them. */
  openFilter(bytes: Uint8Array, opts: OpenFilterOptions = {}): Filter {
    if (!(bytes instanceof Uint8Array)) {
      throw new SstFilterError("BAD_OPTIONS", "openFilter takes the filter bytes as a Uint8Array");
    }
    const format = checkLibraryFormat(opts.format ?? "rocksdb");
    const m = this.heap.module;
    const open = format === "leveldb" ? m.openLevelDbFilter : m.openRocksDbFilter;
    const handle = open.call(m, this.heap.put(bytes), bytes.length);
    return new Filter(this.heap, handle);
  }

  /**
   * A LevelDB filter block for these data blocks (in file order), exactly as LevelDB's
   * FilterBlockBuilder writes it. Keys are user keys.
   */
  buildLevelDbFilterBlock(blocks: LevelDbDataBlock[], bitsPerKey: number): Uint8Array {
    if (!Array.isArray(blocks)) {
      throw new SstFilterError("BAD_OPTIONS", "buildLevelDbFilterBlock takes an array of { offset, keys }");
    }
    if (typeof bitsPerKey !== "number") {
      throw new SstFilterError("BAD_OPTIONS", `bitsPerKey must be a number, got ${typeof bitsPerKey}`);
    }
    const offsets = new Float64Array(blocks.length);
    const sizes = new Float64Array(blocks.length).fill(-1);
    const counts = new Uint32Array(blocks.length);
    const allKeys: Key[] = [];
    blocks.forEach((block, i) => {
      if (block === null || typeof block !== "object" || typeof block.offset !== "number") {
        throw new SstFilterError("BAD_OPTIONS", `block ${i} needs a numeric offset`);
      }
      offsets[i] = block.offset;
      if (block.size !== undefined) {
        if (typeof block.size !== "number" || !(block.size >= 0)) {
          throw new SstFilterError("BAD_OPTIONS", `block ${i}: size must be a number >= 0`);
        }
        sizes[i] = block.size;
      }
      const before = allKeys.length;
      for (const key of block.keys) allKeys.push(key);
      counts[i] = allKeys.length - before;
    });
    const offsetBytes = new Uint8Array(offsets.buffer);
    const sizeBytes = new Uint8Array(sizes.buffer);
    const countBytes = new Uint8Array(counts.buffer);
    // Layout in scratch: key batch | up to 7 bytes of padding | block offsets (f64, 8-aligned) |
    // block sizes (f64) | key counts (u32).
    const at = this.heap.putKeys(
      allKeys,
      "buildLevelDbFilterBlock",
      7 + offsetBytes.length + sizeBytes.length + countBytes.length,
    );
    const offsetsAt = Math.ceil(at.extra / 8) * 8;
    const sizesAt = offsetsAt + offsetBytes.length;
    const countsAt = sizesAt + sizeBytes.length;
    this.heap.bytes.set(offsetBytes, offsetsAt);
    this.heap.bytes.set(sizeBytes, sizesAt);
    this.heap.bytes.set(countBytes, countsAt);
    const out = this.heap.module.buildLevelDbFilterBlock(
      bitsPerKey,
      at.data,
      at.dataSize,
      at.offsets,
      at.count,
      offsetsAt,
      sizesAt,
      countsAt,
      blocks.length,
    );
    if (out === null) throw this.heap.lastError();
    return out;
  }

  /** Opens a LevelDB filter block (the whole block, as stored). */
  openLevelDbFilterBlock(bytes: Uint8Array): LevelDbFilterBlock {
    if (!(bytes instanceof Uint8Array)) {
      throw new SstFilterError("BAD_OPTIONS", "openLevelDbFilterBlock takes the block bytes as a Uint8Array");
    }
    const handle = this.heap.module.openLevelDbFilterBlock(this.heap.put(bytes), bytes.length);
    return new LevelDbFilterBlock(this.heap, handle);
  }

  /**
   * Opens a LevelDB .ldb or RocksDB .sst file held in memory: footer, metaindex, properties, index
   * and filter are read now, data blocks when keys() walks them.
   */
  openTable(bytes: Uint8Array, opts: OpenTableOptions = {}): Table {
    return openTable(this.heap, bytes, opts);
  }

  /**
   * Compares table `a` with table `b`: format, footer, properties, filter, index and data blocks,
   * their entries merged in key order (walked once, in bounded memory) and their range deletions
   * (start key, sequence number order). Rejects with an SstFilterError when a block fails to read,
   * or when the tables are in different key orders.
   */
  diffTables(a: Table | AsyncTable, b: Table | AsyncTable, opts: DiffTablesOptions = {}): Promise<TableDiff> {
    const services: DiffServices = {
      orderOf: (name) => compareFunctionFor(this.heap, name, undefined),
      filterDetails: (bytes, format) => {
        const filter = this.openFilter(bytes, { format });
        try {
          return filter.details;
        } finally {
          filter.dispose();
        }
      },
      levelDbFilters: (block) => {
        const filters = this.openLevelDbFilterBlock(block);
        try {
          return filters.filters();
        } finally {
          filters.dispose();
        }
      },
    };
    return diffTables(services, a, b, opts);
  }

  /**
   * Compares database `a` with database `b` (`sstfilter diff DIR DIR`): the live table files per
   * level (by level, number and size), and the logical contents, what `db.scan` returns of each,
   * merged in key order (streamed, in bounded memory). Rejects with BAD_OPTIONS when the databases
   * are in different key orders, with an SstFilterError when a file fails to read.
   */
  diffDatabases(a: Database, b: Database, opts: DiffDatabasesOptions = {}): Promise<DatabaseDiff> {
    return diffDatabases(a, b, opts);
  }

  /**
   * The lines `sst_dump --command=scan` prints for these entries (e.g. what t.get() found), byte
   * for byte; `hex` as its --output_hex, `escape` as t.scanText()'s (ScanTextOptions).
   */
  formatScanLines(entries: Iterable<Entry>, opts: Pick<ScanTextOptions, "hex" | "escape"> = {}): Uint8Array {
    return formatScanLines(this.heap.module, entries, {
      hex: opts.hex === true,
      escape: opts.escape === true,
    });
  }

  /** Decodes the value of a "blob-index" entry (docs/FORMATS.md 3.10.1). */
  decodeBlobIndex(value: Uint8Array): BlobIndex {
    return decodeBlobIndex(this.heap, value);
  }

  /** Decodes the value of a "wide-column-entity" entry into its columns (docs/FORMATS.md 3.10.2). */
  decodeWideColumns(value: Uint8Array): WideColumn[] {
    return decodeWideColumns(this.heap, value);
  }

  /**
   * Decodes the value of an embedded blob table's rocksdb.embedded.blob.stats property (RocksDB
   * 11.6+, docs/FORMATS.md 3.10.3): its blob record count and payload bytes.
   */
  decodeEmbeddedBlobStats(value: Uint8Array): EmbeddedBlobStats {
    return decodeEmbeddedBlobStats(this.heap, value);
  }

  /**
   * Writes a table: the bytes RocksDB's SstFileWriter (format "rocksdb") or LevelDB's TableBuilder
   * ("leveldb") would write for the same entries and options.
   */
  createTableWriter(opts: WriteOptions): TableWriter {
    return createTableWriter(this.heap, opts);
  }

  /**
   * Opens a database from its files: browser Files (a dropped folder, the files of a
   * showDirectoryPicker handle) or any DatabaseSource. Reads CURRENT and the MANIFEST now.
   */
  async openDatabase(
    files: DatabaseSource | Iterable<Blob & { name: string }>,
    opts: OpenDatabaseOptions = {},
  ): Promise<Database> {
    const source = databaseSourceOf(files, "openDatabase");
    return openDatabase(this.heap, source, opts);
  }

  /**
   * Opens the database whose files lie under `baseUrl` (http or https), read with ranged requests:
   * CURRENT and the MANIFEST now, tables lazily. Its files are `opts.files` when given, else found
   * from CURRENT and the MANIFEST as httpDatabaseSource describes; `headers`, `retries` and `fetch`
   * as openTableFrom takes them for a URL.
   */
  async openDatabaseFrom(
    baseUrl: URL | string,
    opts: OpenDatabaseOptions & HttpDatabaseOptions = {},
  ): Promise<Database> {
    return openDatabase(this.heap, await this.httpDatabaseSource(baseUrl, opts), opts);
  }

  /**
   * The DatabaseSource of the database under `baseUrl` that openDatabaseFrom opens (for
   * verifyDatabase, say); `stats.requests` counts the requests sent for all its files.
   */
  httpDatabaseSource(baseUrl: URL | string, opts: HttpDatabaseOptions = {}): Promise<HttpDatabaseSource> {
    return httpDatabaseSource(this.heap, baseUrl, opts);
  }

  /**
   * The write batches of a write-ahead log (a ".log" file) as RocksDB's default recovery reads
   * them: every record up to a torn tail or a bad record (docs/FORMATS.md 6.4).
   */
  readWriteAheadLog(bytes: Uint8Array, opts: ReadWriteAheadLogOptions = {}): WalFile {
    return readWriteAheadLog(this.heap, bytes, opts);
  }

  /**
   * db.verify for a database's files (see openDatabase); where CURRENT or the MANIFEST cannot be
   * read, the report names that file with its error, and every table and log present is verified.
   */
  async verifyDatabase(
    files: DatabaseSource | Iterable<Blob & { name: string }>,
    opts: DatabaseVerifyOptions & OpenDatabaseOptions = {},
  ): Promise<DatabaseVerifyReport> {
    const source = databaseSourceOf(files, "verifyDatabase");
    return verifySourceDatabase(this.heap, source, (o) => openDatabase(this.heap, source, o), opts);
  }

  /**
   * Opens a table from ranged reads (a Blob, e.g. a browser File, or any ByteSource), lazily; a
   * `URL` or an http(s) URL string is read with ranged requests (httpSource, whose `headers`,
   * `retries` and `fetch` options it takes), the first bringing the footer and meta blocks.
   */
  async openTableFrom(
    source: ByteSource | Blob | URL | string,
    opts: OpenTableOptions & HttpSourceOptions = {},
  ): Promise<AsyncTable> {
    if (source instanceof URL || typeof source === "string") {
      const remote = await httpSource(source, opts);
      return openTableFrom(this.heap, remote, opts, () => remote.close());
    }
    return openTableFrom(this.heap, source, opts);
  }

  /**
   * Registers a record decoder of your own under `name` (a built-in's name is refused): a function
   * `(key, value) => anything` or a {@link RecordDecoder}. decodedRecords and `sstfilter db dump`
   * (through ts/tools/db-dump.ts) use it by name. Returns the registered decoder.
   */
  registerDecoder(name: string, decoder: DecoderOption): RecordDecoder {
    return this.#decoders.register(name, decoder);
  }

  /**
   * The decoder named `name`: a built-in ("indexeddb", "localstorage", "sessionstorage": Chrome's
   * stores, decoded into the tagged JSON of docs/FORMATS.md 7.5) or one registered. BAD_OPTIONS
   * for an unknown name. `decoder(name).decode(key, value)` throws SstFilterError for a record
   * that does not decode (the offset of the byte it is about).
   */
  decoder(name: string): RecordDecoder {
    return this.#decoders.get(name);
  }

  /** The names of the decoders: the built-ins, then those registered. */
  decoderNames(): string[] {
    return this.#decoders.names();
  }

  /** Which of Chrome's stores a database is ("indexeddb", "localstorage", "sessionstorage"), or null. */
  detectStore(db: Database): Promise<StoreKind | null> {
    return detectStore(this.heap, db);
  }

  /**
   * The live records of `db` (db.scan()) with what the decoder `decoder` (a name or a
   * RecordDecoder) makes of each: `{ key, value, record }`. An SstFilterError from the decoder
   * names the record's key; `opts.onError` may take it instead (its answer is yielded as the record,
   * undefined skips it); `opts.columnFamily` as db.scan's.
   */
  decodedRecords(
    db: Database,
    decoder: string | RecordDecoder,
    opts: DecodedRecordsOptions = {},
  ): AsyncIterableIterator<DecodedRecord> {
    return decodedRecords(db, typeof decoder === "string" ? this.decoder(decoder) : decoder, opts);
  }

  /**
   * A Chrome IndexedDB folder (comparator idb_cmp1) as the page sees it: databases → object stores
   * → records (IDB key and value in tagged JSON, in key order) and live index entries, with the
   * key generator's keys injected, stale index entries dropped, and blob-wrapped values read from
   * `opts.blobs` (else left as their {"$blob"} marker). See ts/api/indexeddb.ts.
   */
  readIndexedDb(db: Database, opts: ReadIndexedDbOptions = {}): Promise<IndexedDbDatabase[]> {
    return readIndexedDb(this.heap, db, opts);
  }

  /** A Chrome localStorage folder as origin → key → value. */
  readLocalStorage(db: Database): Promise<LocalStorageOrigin[]> {
    return readLocalStorage(db, this.decoder("localstorage"));
  }

  /** A Chrome sessionStorage folder as namespace and origin → key → value. */
  readSessionStorage(db: Database): Promise<SessionStorageArea[]> {
    return readSessionStorage(db, this.decoder("sessionstorage"));
  }
}
