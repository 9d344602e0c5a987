// @ts-check
// The viewer's Web Worker: every wasm call and file read happens here, so the page never freezes.
// Verify shares a large table's data blocks with further workers of this same file (each opens
// the file itself and runs the op verifyRange for range after range), one per core by default.
// Protocol: the page posts { id, op, ...args }; the worker answers { id, result } or
// { id, error: { code, message, offset } }, and { id, progress } while a long operation runs.
import {
  compareBytes,
  estimateFalsePositiveRate,
  init,
  summarizeTableFilter,
  verifyTable,
} from "../dist/esm/platform/browser.js";
import { parseHex } from "../dist/esm/tools/format.js";
import { defaultVerifyJobs, verifyTableSplit } from "../dist/esm/api/table-verify.js";
import { forgetStores, storesOps } from "./stores-worker.mjs";
/** @import { AsyncTable, Backend, BlobIndex, Database, Entry, Filter, FilterFormat, GetExplanation, RouteStep, TableRegion, VerifyProgress, VerifyReport, WideColumn, WriteOptions } from "../dist/esm/platform/browser.js" */
/** @import { BlockRange } from "../dist/esm/platform/browser.js" */
/** @import { RangeVerifyThread } from "../dist/esm/api/table-verify.js" */

/**
 * An error as the page receives it.
 * @typedef {object} PlainError
 * @property {string} code
 * @property {string} message
 * @property {number | null} offset
 */

/**
 * Each op's arguments, as the page posts them next to `id` and `op`.
 * @typedef {object} OpArgs
 * @property {{ file: File, internalKeys: boolean }} open
 * @property {{ key: string, hex: boolean }} probe
 * @property {{ seek: SeekText | null, size: number }} seek
 * @property {{ page: number, size: number }} entries
 * @property {{ offset: number, size: number }} seekBlock
 * @property {{}} layout
 * @property {{ start: number, size: number }} indexEntries
 * @property {{}} rangeDeletions
 * @property {{ jobs: number | null }} verify
 * @property {{ file: File, internalKeys: boolean, range: Required<BlockRange>, maxReported: number, metaBlocks?: boolean }} verifyRange
 * @property {{}} cancelVerify
 * @property {{ lines: string[], hex: boolean, format: FilterFormat, bitsPerKey: number }} build
 * @property {{ key: string, hex: boolean }} probeBuilt
 * @property {{ lines: string[], hex: boolean, sort: boolean, options: WriteOptions }} write
 * @property {{ files: File[] }} openDatabase
 * @property {{ key: string, hex: boolean, columnFamily: string }} explain
 * @property {{}} openStores
 * @property {{ group: number, store: number, offset: number, size: number, seek: string | null }} storeRecords
 */

/** @typedef {keyof OpArgs} OpName */

/**
 * What the page posts.
 * @typedef {{ [K in OpName]: { id: number, op: K } & OpArgs[K] }[OpName]} WorkerRequest
 */

/**
 * What the worker posts: first `ready` (the backend), then for each request its progress (verify
 * only) and its result or error. The fields a message lacks are typed undefined, so that the page
 * can test each field.
 * @typedef {{ ready: Backend, id?: undefined, progress?: undefined, result?: undefined, error?: undefined }
 *   | { ready?: undefined, id: number, progress: VerifyProgress, result?: undefined, error?: undefined }
 *   | { ready?: undefined, id: number, progress?: undefined, result: unknown, error?: undefined }
 *   | { ready?: undefined, id: number, progress?: undefined, result?: undefined, error: PlainError }
 * } WorkerMessage
 */

/**
 * Where the contents view starts, as the seek box has it: `from` or `prefix`, as text or hex.
 * @typedef {object} SeekText
 * @property {"from" | "prefix"} kind
 * @property {string} key
 * @property {boolean} hex
 */

/**
 * One entry of a page of the contents view: its position in the view, and the first
 * VALUE_PREVIEW_BYTES of its value (valueSize says how long it is).
 * @typedef {object} EntryRow
 * @property {number} index
 * @property {Uint8Array} key
 * @property {bigint | undefined} seq
 * @property {string | undefined} type
 * @property {number | undefined} typeCode
 * @property {Uint8Array | undefined} timestamp
 * @property {Uint8Array} value
 * @property {number} valueSize
 * @property {DecodedValue | undefined} decoded
 */

/**
 * The value of a "blob-index" or "wide-column-entity" entry, decoded: the blob index, the columns
 * (each value cut to VALUE_PREVIEW_BYTES), or why it does not decode.
 * @typedef {{ blobIndex: BlobIndex, columns?: undefined, error?: undefined }
 *   | { blobIndex?: undefined, columns: WideColumn[], error?: undefined }
 *   | { blobIndex?: undefined, columns?: undefined, error: PlainError }} DecodedValue
 */

/**
 * A region of the file map: t.layout()'s, without the separator (the index list fetches those).
 * @typedef {Omit<TableRegion, "separator">} MapRegion
 */

/**
 * A write-ahead log as the LSM picture draws it: its records and how it ended; null, and `error`,
 * when the log could not be read (its records up to the bad one are still counted).
 * @typedef {object} WalSummary
 * @property {string} name
 * @property {number} size
 * @property {number | null} records
 * @property {string | null} end "clean", "torn" or "corrupt"
 * @property {string | null} error
 */

/**
 * The part of the worker's global scope this file uses (the page's lib types `self` as a Window).
 * @typedef {object} WorkerScope
 * @property {((event: MessageEvent<WorkerRequest>) => void) | null} onmessage
 * @property {(message: WorkerMessage) => void} postMessage
 */

const scope = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

const sf = await init();

/** @type {AsyncTable | null} */
let table = null; // the open AsyncTable
/** @type {{ file: File, internalKeys: boolean } | null} */
let tableFile = null; // what `table` was opened from, for verify's further workers
/** @type {{ file: File, internalKeys: boolean, table: Promise<AsyncTable> } | null} */
let rangeTable = null; // the table verifyRange walks, kept for the next range of the same file
/** @type {EntryPages | null} */
let entryPages = null; // the contents view (see EntryPages)
/** @type {Promise<TableRegion[]> | null} */
let layout = null; // the table's layout, read once
/** @type {AbortController | null} */
let verifying = null; // AbortController of the running verification
/** @type {Filter | null} */
let built = null; // the playground's filter
/** @type {Database | null} */
let database = null; // the dropped database folder

/**
 * Errors as plain objects: SstFilterError's code and offset survive postMessage.
 * @param {unknown} thrown
 * @returns {PlainError}
 */
function plainError(thrown) {
  const error =
    /** @type {{ code?: unknown, name?: string, message?: string, offset?: number } | null | undefined} */ (
      thrown
    );
  return {
    // DOMExceptions (an abort) carry a numeric legacy code: their name says more.
    code: typeof error?.code === "string" ? error.code : (error?.name ?? "ERROR"),
    message: error?.message ?? String(error),
    offset: error?.offset ?? null,
  };
}

/**
 * bigints (properties above 2^53) cannot be cloned into JSON-like displays: decimal strings.
 * @param {AsyncTable["properties"]} properties
 */
function plainProperties(properties) {
  return Object.fromEntries(
    Object.entries(properties).map(([name, value]) => [
      name,
      typeof value === "bigint" ? value.toString() : value,
    ]),
  );
}

/**
 * @param {string} text
 * @param {boolean} hex
 * @returns {Uint8Array}
 */
function keyBytes(text, hex) {
  if (!hex) return new TextEncoder().encode(text);
  const bytes = parseHex(text);
  if (bytes === null) throw Object.assign(new Error(`not hex: ${JSON.stringify(text)}`), { code: "BAD_KEY" });
  return bytes;
}

// Values longer than this reach the page cut short (the view shows their size).
const VALUE_PREVIEW_BYTES = 4096;
// A table may hold millions of range deletions: the page lists the first ones.
const RANGE_DELETIONS_SHOWN = 1000;

/**
 * `entry`'s value decoded where its type has a structure (sf.decodeBlobIndex,
 * sf.decodeWideColumns); undefined for other types.
 * @param {Entry} entry
 * @returns {DecodedValue | undefined}
 */
function decodedValue(entry) {
  try {
    if (entry.type === "blob-index") return { blobIndex: sf.decodeBlobIndex(entry.value) };
    if (entry.type === "wide-column-entity") {
      const columns = sf.decodeWideColumns(entry.value).map((c) => ({
        ...c,
        value: c.value.slice(0, VALUE_PREVIEW_BYTES),
      }));
      return { columns };
    }
  } catch (error) {
    return { error: plainError(error) };
  }
  return undefined;
}

/**
 * Where a page of the contents view starts: the entry `skip` entries into a walk from user key
 * `key` (versions of one key repeat it), which is entry `index` of the view. `key` is null at the
 * view's start, and for tables whose order the library cannot seek in (then the walk from the
 * start skips `index` entries).
 * @typedef {object} Anchor
 * @property {Uint8Array | null} key
 * @property {number} skip
 * @property {number} index
 */

/**
 * The contents view: pages of entries from `seek` on. Each page is read by a walk of its own that
 * seeks to the page's anchor and stops after the page (t.entries' limit), so a page costs a block
 * or two wherever it lies in the file; reading one records where the next starts.
 */
class EntryPages {
  /**
   * @param {AsyncTable} t
   * @param {{ from?: Uint8Array, prefix?: Uint8Array }} seek
   * @param {Anchor} start
   */
  constructor(t, seek, start) {
    this.table = t;
    this.seek = seek;
    /** @type {Anchor[]} */
    this.anchors = [start];
    this.seekable = true; // false once the table refused a seek (a comparator it cannot order)
  }

  /**
   * Page `number`: one the view has reached (at most one past the last read).
   * @param {number} number
   * @param {number} size
   * @returns {Promise<{ rows: EntryRow[], last: boolean }>}
   */
  async page(number, size) {
    const anchor = this.anchors[number];
    if (anchor === undefined) throw new Error(`page ${number + 1} is not reached yet`);
    const key = this.seekable ? anchor.key : null;
    const skip = key === null ? anchor.index : anchor.skip;
    const range = key === null ? this.seek : { ...this.seek, from: key };
    /** @type {AsyncIterable<Entry>} */
    let walk;
    try {
      // The page's entries and the one after them, which anchors the next page.
      walk = this.table.entries({ ...range, limit: skip + size + 1 });
    } catch (error) {
      const code = /** @type {{ code?: unknown }} */ (error).code;
      if (code !== "UNSUPPORTED" || key === null) throw error;
      this.seekable = false; // walk from the view's start and skip instead
      return this.page(number, size);
    }
    // The run of entries with one user key so far, counted from the walk's start: where the next
    // page's anchor lies within its key.
    let runKey = key;
    let runCount = 0;
    let taken = 0;
    /** @type {EntryRow[]} */
    const rows = [];
    for await (const entry of walk) {
      if (taken++ >= skip && rows.length === size) {
        const sameRun = runKey !== null && compareBytes(entry.key, runKey) === 0;
        this.anchors[number + 1] = {
          key: this.seekable ? entry.key.slice() : null, // not a view that keeps the batch alive
          skip: sameRun ? runCount : 0,
          index: anchor.index + size,
        };
        return { rows, last: false };
      }
      if (runKey !== null && compareBytes(entry.key, runKey) === 0) runCount++;
      else {
        runKey = entry.key;
        runCount = 1;
      }
      if (taken <= skip) continue;
      rows.push({
        index: anchor.index + rows.length,
        key: entry.key,
        seq: entry.seq,
        type: entry.type,
        typeCode: entry.typeCode,
        timestamp: entry.timestamp,
        value: entry.value.slice(0, VALUE_PREVIEW_BYTES),
        valueSize: entry.value.length,
        decoded: decodedValue(entry),
      });
    }
    return { rows, last: true };
  }
}

/**
 * The first user key of the data block at `offset`, and how many entries of that key lie in the
 * blocks before it (a key's versions may span blocks): the anchor a view from that block starts
 * at. Reads that block (and, rarely, those before it).
 * @param {AsyncTable} t
 * @param {TableRegion[]} regions
 * @param {number} offset
 * @returns {Promise<Anchor>}
 */
async function blockAnchor(t, regions, offset) {
  /** @param {number} from where the block lies; its keys come back */
  const blockKeys = async (from) => {
    for await (const batch of t.keyBatches({ from, to: from + 1 })) {
      return Array.from({ length: batch.offsets.length - 1 }, (_, i) =>
        batch.data.slice(batch.offsets[i], batch.offsets[i + 1]),
      );
    }
    return [];
  };
  const data = regions.filter((r) => r.kind === "data");
  let number = data.findIndex((r) => r.offset === offset);
  if (number < 0) throw new Error(`no data block at ${offset}`);
  let keys = await blockKeys(offset);
  // An empty block (never written, but possible) has no first key: the next block's counts.
  while (keys.length === 0 && number + 1 < data.length) keys = await blockKeys(data[++number].offset);
  const key = keys[0];
  if (key === undefined) return { key: null, skip: 0, index: 0 };
  let skip = 0;
  for (let before = number - 1; before >= 0; before--) {
    const previous = await blockKeys(data[before].offset);
    let same = 0;
    while (same < previous.length && compareBytes(previous[previous.length - 1 - same], key) === 0) same++;
    skip += same;
    if (same < previous.length) break;
  }
  return { key, skip, index: 0 };
}

/**
 * The database's live write-ahead logs with their record counts, from the memtable the core
 * replays for Gets (the records stay in wasm memory: a log of hundreds of megabytes fits); when
 * the replay fails (the picture still shows the tables), every *.log file of the folder with the
 * error.
 * @param {Database} db
 * @param {Map<string, number>} sizes file sizes by name
 * @returns {Promise<WalSummary[]>}
 */
async function walSummaries(db, sizes) {
  try {
    return (await db.memtableLogs()).map((log) => ({
      name: log.name,
      size: sizes.get(log.name) ?? 0,
      records: log.records,
      end: log.end,
      error: log.stopped === null ? null : `replay stopped (${log.stopped.reason}): ${log.stopped.what}`,
    }));
  } catch (thrown) {
    const { code, message } = plainError(thrown);
    return db.fileNames
      .filter((name) => name.endsWith(".log"))
      .map((name) => ({
        name,
        size: sizes.get(name) ?? 0,
        records: null,
        end: null,
        error: `${code}: ${message}`,
      }));
  }
}

/** @returns {Promise<TableRegion[]>} */
function tableLayout() {
  if (table === null) throw new Error("no file is open");
  layout ??= table.layout();
  return layout;
}

function closeTable() {
  verifying?.abort();
  verifying = null;
  entryPages = null;
  layout = null;
  table?.dispose();
  table = null;
  tableFile = null;
}

const ops = {
  // The Stores view's: openStores, storeRecords (stores-worker.mjs).
  ...storesOps(sf, () => database),

  /** @param {OpArgs["open"]} args */
  async open({ file, internalKeys }) {
    closeTable();
    table = await sf.openTableFrom(file, { internalKeys });
    tableFile = { file, internalKeys };
    return {
      backend: sf.backend,
      format: table.format,
      footer: table.footer,
      metaindex: table.metaindex,
      properties: plainProperties(table.properties),
      filter: table.filter,
      order: table.order,
      summary: await summarizeTableFilter(sf, table),
    };
  },

  /** @param {OpArgs["probe"]} args */
  async probe({ key, hex }) {
    if (table === null) throw new Error("no file is open");
    const bytes = keyBytes(key, hex);
    const explanation = await table.explain(bytes);
    return { ...explanation, keyLength: bytes.length, partitions: table.filter?.partitions ?? 0 };
  },

  /**
   * Starts the contents view at `seek` (null: the whole table): its first page.
   * @param {OpArgs["seek"]} args
   */
  async seek({ seek, size }) {
    if (table === null) throw new Error("no file is open");
    /** @type {{ from?: Uint8Array, prefix?: Uint8Array }} */
    const range = seek === null ? {} : { [seek.kind]: keyBytes(seek.key, seek.hex) };
    entryPages = new EntryPages(table, range, { key: null, skip: 0, index: 0 });
    return entryPages.page(0, size);
  },

  /**
   * Page `page` of the contents view (one it has reached).
   * @param {OpArgs["entries"]} args
   */
  async entries({ page, size }) {
    if (entryPages === null) throw new Error("no file is open");
    return entryPages.page(page, size);
  },

  /**
   * The contents view from the first entry of the data block at `offset` on: its first page and
   * that entry's key.
   * @param {OpArgs["seekBlock"]} args
   */
  async seekBlock({ offset, size }) {
    if (table === null) throw new Error("no file is open");
    const anchor = await blockAnchor(table, await tableLayout(), offset);
    const from = anchor.key ?? new Uint8Array(0);
    entryPages = new EntryPages(table, anchor.key === null ? {} : { from }, anchor);
    return { from, ...(await entryPages.page(0, size)) };
  },

  /** The file map: every region but its separator, which indexEntries hands out. */
  async layout() {
    /** @type {MapRegion[]} */
    const regions = (await tableLayout()).map(({ separator: _, ...region }) => region);
    return regions;
  },

  /**
   * Entries [start, start + size) of the index: one per data block, its separator and handle.
   * @param {OpArgs["indexEntries"]} args
   */
  async indexEntries({ start, size }) {
    const data = (await tableLayout()).filter((r) => r.kind === "data");
    const rows = data.slice(start, start + size).map((r, i) => ({
      index: start + i,
      separator: r.separator ?? new Uint8Array(0),
      offset: r.offset,
      size: r.size,
    }));
    return { rows, total: data.length };
  },

  /** The range deletions, up to RANGE_DELETIONS_SHOWN of them, and how many there are. */
  async rangeDeletions() {
    if (table === null) throw new Error("no file is open");
    const all = await table.rangeDeletions();
    return { rows: all.slice(0, RANGE_DELETIONS_SHOWN), total: all.length };
  },

  /**
   * @param {OpArgs["verify"]} args `jobs`: threads to share the data blocks (null: defaultVerifyJobs)
   * @param {(progress: VerifyProgress) => void} progress
   */
  async verify({ jobs }, progress) {
    if (table === null || tableFile === null) throw new Error("no file is open");
    verifying?.abort();
    const controller = new AbortController();
    verifying = controller;
    let last = 0;
    const source = tableFile;
    const report = await verifyTableSplit(table, () => startRangeWorker(source), {
      jobs: jobs ?? defaultVerifyJobs(table, navigator.hardwareConcurrency || 1),
      signal: controller.signal,
      onProgress(p) {
        // At most ~20 messages a second: the page only redraws a bar.
        const now = performance.now();
        if (now - last > 50 || p.bytesDone === p.bytesTotal) {
          last = now;
          progress(p);
        }
      },
    });
    // LevelDB records no key counts; now that they are known, the estimates can be made.
    const summary =
      report.keysPerLevelDbFilter !== null && report.error === null
        ? await summarizeTableFilter(sf, table, {
            keysPerLevelDbFilter: report.keysPerLevelDbFilter,
          })
        : null;
    if (verifying === controller) verifying = null;
    return { report, summary };
  },

  /**
   * One range of another worker's verify (see startRangeWorker): this worker opens the file once
   * for all the ranges it is given. With `metaBlocks`, the meta blocks too: a whole table, as
   * db.verify's further threads verify them (TableVerifyThreads).
   * @param {OpArgs["verifyRange"]} args
   * @param {(progress: VerifyProgress) => void} progress
   */
  async verifyRange({ file, internalKeys, range, maxReported, metaBlocks = false }, progress) {
    if (rangeTable?.file !== file || rangeTable.internalKeys !== internalKeys) {
      rangeTable?.table.then(
        (t) => t.dispose(),
        () => undefined,
      );
      rangeTable = { file, internalKeys, table: sf.openTableFrom(file, { internalKeys }) };
    }
    const own = await rangeTable.table;
    return verifyTable(own, { range, metaBlocks, maxReported, onProgress: progress });
  },

  async cancelVerify() {
    verifying?.abort();
    verifying = null;
  },

  /** @param {OpArgs["build"]} args */
  async build({ lines, hex, format, bitsPerKey }) {
    const keys = lines.map((line) => keyBytes(line, hex));
    const bytes = sf.buildFilter(keys, { format, bitsPerKey });
    built?.dispose();
    built = sf.openFilter(bytes, { format: format === "leveldb" ? "leveldb" : "rocksdb" });
    const details = built.details;
    return {
      bytes,
      details,
      estimatedFpRate: estimateFalsePositiveRate(details, keys.length),
    };
  },

  /** @param {OpArgs["write"]} args */
  async write({ lines, hex, sort, options }) {
    /** @type {[Uint8Array, Uint8Array][]} */
    const entries = lines.map((line) => {
      const tab = line.indexOf("\t");
      return tab < 0
        ? [keyBytes(line, hex), new Uint8Array(0)]
        : [keyBytes(line.slice(0, tab), hex), keyBytes(line.slice(tab + 1), hex)];
    });
    if (sort) entries.sort((a, b) => compareBytes(a[0], b[0]));
    const writer = sf.createTableWriter(options);
    try {
      for (const [key, value] of entries) writer.put(key, value);
      return { bytes: writer.finish(), entries: entries.length };
    } finally {
      writer.dispose();
    }
  },

  /**
   * Opens a dropped database folder: the MANIFEST's live files per column family and level, the
   * logs, and whether a Get can be explained.
   * @param {OpArgs["openDatabase"]} args
   */
  async openDatabase({ files }) {
    database?.dispose(); // the tables its Gets opened
    database = null;
    forgetStores();
    const db = await sf.openDatabase(files);
    const sizes = new Map(files.map((f) => [f.name, f.size]));
    const wals = await walSummaries(db, sizes);
    database = db;
    return {
      format: db.format,
      manifest: db.manifest,
      manifestEnd: db.manifestEnd,
      lastSequence: db.lastSequence,
      editCount: db.editCount,
      columnFamilies: db.columnFamilies.map((cf) => ({
        id: cf.id,
        name: cf.name,
        comparator: cf.comparator,
        levels: cf.levels.map((l) => ({
          level: l.level,
          bytes: l.bytes,
          files: l.files.map((f) => ({
            name: f.name,
            size: f.size,
            smallestKey: f.smallestKey,
            largestKey: f.largestKey,
            smallestSeqno: f.smallestSeqno,
            largestSeqno: f.largestSeqno,
            present: sizes.has(f.name),
          })),
        })),
      })),
      wals,
    };
  },

  /**
   * db.explain for a key typed as text or hex, in one column family.
   * @param {OpArgs["explain"]} args
   */
  async explain({ key, hex, columnFamily }) {
    if (database === null) throw new Error("no database is open");
    const explanation = await database.explain(keyBytes(key, hex), { columnFamily });
    const value = explanation.result.value;
    return {
      ...explanation,
      result: { ...explanation.result, value: value?.slice(0, VALUE_PREVIEW_BYTES) ?? null },
      valueSize: value?.length ?? 0,
    };
  },

  /** @param {OpArgs["probeBuilt"]} args */
  async probeBuilt({ key, hex }) {
    if (built === null) throw new Error("build a filter first");
    return built.mayContain(keyBytes(key, hex));
  },
};

/**
 * A new worker of this file verifying ranges of `source` one after another (op verifyRange), until
 * close() or an abort of `signal` stops it.
 * @param {{ file: File, internalKeys: boolean }} source
 * @returns {RangeVerifyThread}
 */
function startRangeWorker(source) {
  const worker = new Worker(new URL(import.meta.url), { type: "module" });
  /** @type {{ resolve(report: VerifyReport): void, reject(error: unknown): void, onProgress(p: VerifyProgress): void } | null} */
  let running = null;
  /** @type {(ready: boolean) => void} */
  let settleReady = () => undefined;
  // The worker loads the module first; it takes requests once it posted `ready`.
  const ready = new Promise((resolve) => (settleReady = resolve));
  /** @type {unknown} */
  let failure = null;
  const fail = (/** @type {unknown} */ error) => {
    failure ??= error;
    worker.terminate();
    settleReady(false);
    running?.reject(failure);
    running = null;
  };
  worker.onerror = (event) => fail(new Error(`verify worker failed: ${event.message}`));
  worker.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ { data }) => {
    if (data.ready !== undefined) settleReady(true);
    else if (running === null) return;
    else if (data.progress !== undefined) running.onProgress(data.progress);
    else {
      const settled = running;
      running = null;
      if (data.error === undefined) settled.resolve(/** @type {VerifyReport} */ (data.result));
      else {
        const { code, message, offset } = data.error;
        settled.reject(Object.assign(new Error(message), { code, offset }));
      }
    }
  };
  return {
    async verify(range, onProgress, signal) {
      if (!(await ready)) throw failure;
      signal?.throwIfAborted();
      const abort = () => fail(signal?.reason);
      signal?.addEventListener("abort", abort, { once: true });
      try {
        return await new Promise((resolve, reject) => {
          running = { resolve, reject, onProgress };
          worker.postMessage({ id: 0, op: "verifyRange", ...source, range, maxReported: 10 });
        });
      } finally {
        signal?.removeEventListener("abort", abort);
      }
    },
    close: () => fail(new Error("the verify worker is closed")),
  };
}

/**
 * The ops by name; OpResult<K> is what op K answers.
 * @typedef {typeof ops} Ops
 */
/**
 * @template {OpName} K
 * @typedef {Awaited<ReturnType<Ops[K]>>} OpResult
 */

/**
 * How the message handler calls an op: `op` and the arguments the page posted with it match.
 * @typedef {(args: object, progress: (progress: VerifyProgress) => void) => Promise<unknown>} AnyOp
 */

// The event is annotated: in JS files, an assignment to a property of a const gets no contextual type.
scope.onmessage = async (/** @type {MessageEvent<WorkerRequest>} */ { data }) => {
  const { id, op, ...args } = data;
  try {
    const result = await /** @type {AnyOp} */ (ops[op])(args, (progress) =>
      scope.postMessage({ id, progress }),
    );
    scope.postMessage({ id, result });
  } catch (error) {
    scope.postMessage({ id, error: plainError(error) });
  }
};

scope.postMessage({ ready: sf.backend });
