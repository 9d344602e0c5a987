// @ts-check
// The table view's ops: the open table (one at a time), its facts, probes, pages of entries, file
// map, index and range deletions, filter advice, and Verify, which shares a large table's data blocks with further
// workers of worker.mjs (each opens the file itself and runs the op verifyRange for range after
// range), one per core by default. The table is a File, or an http(s) URL (the page's ?url=) read
// with ranged requests: the further workers open the URL themselves as they open a File.
import {
  defaultVerifyJobs,
  filterAdvice,
  httpSource,
  summarizeTableFilter,
  verifyTable,
  verifyTableSplit,
} from "../../dist/esm/platform/browser.js";
import { sf } from "./backend.mjs";
import { blockAnchor, EntryPages } from "./entry-pages.mjs";
import { keyBytes } from "./protocol.mjs";
/** @import { AsyncTable, HttpSource, TableRegion, VerifyProgress, VerifyReport } from "../../dist/esm/platform/browser.js" */
/** @import { MapRegion, OpArgs, WorkerMessage } from "./protocol.mjs" */
/** @import { RangeVerifyThread } from "../../dist/esm/platform/browser.js" */

/** @type {AsyncTable | null} */
let table = null; // the open AsyncTable
/** @type {{ file: File | string, internalKeys: boolean } | null} */
let tableFile = null; // what `table` was opened from, for verify's further workers
/** @type {{ file: File | string, internalKeys: boolean, table: Promise<AsyncTable> } | null} */
let rangeTable = null; // the table verifyRange walks, kept for the next range of the same file
/** @type {HttpSource | null} */
let remote = null; // the source of a table opened from a URL, closed with it (a response still read)
/** @type {EntryPages | null} */
let entryPages = null; // the contents view (see EntryPages)
/** @type {Promise<TableRegion[]> | null} */
let layout = null; // the table's layout, read once
/** @type {AbortController | null} */
let verifying = null; // AbortController of the running verification
/** @typedef {RangeVerifyThread & { failed(): boolean }} RangeWorker */
/** @type {RangeWorker[]} */
let idleRangeWorkers = []; // Verify's further workers while none runs (see open)

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

// The viewer's filter advice: keys built from at most, absent keys per filter.
const ADVICE_SAMPLE = 200_000;
const ADVICE_ABSENT_KEYS = 20_000;

// A table may hold millions of range deletions: the page lists the first ones.
const RANGE_DELETIONS_SHOWN = 1000;

/** @returns {Promise<TableRegion[]>} */
function tableLayout() {
  if (table === null) throw new Error("no file is open");
  layout ??= table.layout();
  return layout;
}

function closeTable() {
  verifying?.abort();
  verifying = null;
  for (const worker of idleRangeWorkers.splice(0)) worker.close();
  entryPages = null;
  layout = null;
  table?.dispose();
  table = null;
  remote?.close();
  remote = null;
  tableFile = null;
}

export const tableOps = {
  /**
   * Filter advice on the table's keys (filterAdvice): a smaller sample and fewer absent keys than
   * the command line's defaults, so that the panel answers within seconds.
   * @param {OpArgs["filterAdvice"]} args
   */
  async filterAdvice({ fpRate }) {
    if (table === null) throw new Error("no file is open");
    return filterAdvice(sf, table, { fpRate, sample: ADVICE_SAMPLE, absentKeys: ADVICE_ABSENT_KEYS });
  },

  /** @param {OpArgs["open"]} args */
  async open({ file, internalKeys }) {
    closeTable();
    // A URL is read through an httpSource of this op's own: its size comes with the first answer.
    const bytes = typeof file === "string" ? await httpSource(file) : file;
    remote = bytes instanceof Blob ? null : bytes;
    table = await sf.openTableFrom(bytes, { internalKeys });
    tableFile = { file, internalKeys };
    // The further workers a Verify would use start now, so that no Verify waits for their module
    // to load, and stay until the table closes: after its first range a worker keeps its own copy
    // of the table open (verifyRange), which the next Verify finds. That copy is memory
    // defaultVerifyJobs counted in when it chose their number.
    const source = tableFile;
    const further = defaultVerifyJobs(table, navigator.hardwareConcurrency || 1) - 1;
    idleRangeWorkers = Array.from({ length: further }, () => startRangeWorker(source));
    return {
      backend: sf.backend,
      size: bytes.size,
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
    const explanation = await table.explainMayContain(bytes);
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
    /** @returns {RangeVerifyThread} */
    const startThread = () => {
      const worker = idleRangeWorkers.shift() ?? startRangeWorker(source);
      return {
        verify: worker.verify,
        // Back to the idle ones unless it failed (an abort ends it) or another table was opened.
        close: () =>
          worker.failed() || tableFile !== source ? worker.close() : idleRangeWorkers.push(worker),
      };
    };
    const report = await verifyTableSplit(table, startThread, {
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
};

/**
 * A new worker (worker.mjs) verifying ranges of `source` one after another (op verifyRange), until
 * close() or an abort of `signal` stops it (failed() then says so).
 * @param {{ file: File | string, internalKeys: boolean }} source
 * @returns {RangeWorker}
 */
function startRangeWorker(source) {
  const worker = new Worker(new URL("../worker.mjs", import.meta.url), { type: "module" });
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
    // verifyRange posts a VerifyProgress.
    else if (data.progress !== undefined) running.onProgress(/** @type {VerifyProgress} */ (data.progress));
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
    failed: () => failure !== null,
  };
}
