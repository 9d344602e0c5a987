// @ts-check
// The viewer's Web Worker: every wasm call and file read happens here, so the page never freezes.
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
/** @import { AsyncTable, Backend, Filter, FilterFormat, VerifyProgress, WriteOptions } from "../dist/esm/platform/browser.js" */

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
 * @property {{ start: number, size: number }} keys
 * @property {{}} verify
 * @property {{}} cancelVerify
 * @property {{ lines: string[], hex: boolean, format: FilterFormat, bitsPerKey: number }} build
 * @property {{ key: string, hex: boolean }} probeBuilt
 * @property {{ lines: string[], hex: boolean, sort: boolean, options: WriteOptions }} write
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
 * One key of a page of keys: its position in the file, and its data block.
 * @typedef {object} KeyRow
 * @property {number} index
 * @property {Uint8Array} key
 * @property {[number, number]} block
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
/** @type {KeyPages | null} */
let keyPages = null; // its key walk (see KeyPages)
/** @type {AbortController | null} */
let verifying = null; // AbortController of the running verification
/** @type {Filter | null} */
let built = null; // the playground's filter

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

/**
 * Pages of keys in file order, read lazily: the walk advances only as far as the pages asked for.
 * Keys of up to MAX_CACHED_BLOCKS data blocks stay in memory; a page of an evicted block is read
 * again by a fresh walk from the start (big files, paging backwards).
 */
const MAX_CACHED_BLOCKS = 2048;

class KeyPages {
  /** @param {AsyncTable} t */
  constructor(t) {
    this.table = t;
    this.walk = t.dataBlocks();
    /** @type {{ offset: number, size: number, first: number }[]} */
    this.blocks = []; // { offset, size, first } per data block walked
    /** @type {Map<number, Uint8Array[]>} */
    this.cache = new Map(); // block number -> keys
    this.total = 0; // keys walked so far
    this.done = false;
  }

  /**
   * @param {number} number
   * @param {Uint8Array[]} keys
   */
  remember(number, keys) {
    this.cache.set(number, keys);
    if (this.cache.size > MAX_CACHED_BLOCKS) {
      this.cache.delete(/** @type {number} */ (this.cache.keys().next().value));
    }
  }

  /** @param {number} end */
  async advanceTo(end) {
    while (!this.done && this.total < end) {
      const next = await this.walk.next();
      if (next.done) {
        this.done = true;
        break;
      }
      const block = next.value;
      this.remember(this.blocks.length, block.keys);
      this.blocks.push({ offset: block.offset, size: block.size, first: this.total });
      this.total += block.keys.length;
    }
  }

  /**
   * Block numbers whose keys overlap [start, end).
   * @param {number} start
   * @param {number} end
   */
  blocksFor(start, end) {
    /** @type {number[]} */
    const out = [];
    for (let b = 0; b < this.blocks.length; b++) {
      const { first } = this.blocks[b];
      const last = b + 1 < this.blocks.length ? this.blocks[b + 1].first : this.total;
      if (last > start && first < end) out.push(b);
    }
    return out;
  }

  /** @param {number[]} numbers */
  async refill(numbers) {
    const wanted = new Set(numbers.filter((b) => !this.cache.has(b)));
    if (wanted.size === 0) return;
    const last = Math.max(...wanted);
    let number = 0;
    for await (const block of this.table.dataBlocks()) {
      if (wanted.has(number)) this.remember(number, block.keys);
      if (number++ === last) break;
    }
  }

  /**
   * @param {number} start
   * @param {number} size
   */
  async page(start, size) {
    await this.advanceTo(start + size);
    const numbers = this.blocksFor(start, start + size);
    await this.refill(numbers);
    /** @type {KeyRow[]} */
    const rows = [];
    for (const b of numbers) {
      const { offset, size: blockSize, first } = this.blocks[b];
      /** @type {Uint8Array[]} */ (this.cache.get(b)).forEach((key, i) => {
        const index = first + i;
        if (index >= start && index < start + size) {
          rows.push({ index, key, block: [offset, blockSize] });
        }
      });
    }
    return { rows, walked: this.total, done: this.done };
  }
}

function closeTable() {
  verifying?.abort();
  verifying = null;
  keyPages = null;
  table?.dispose();
  table = null;
}

const ops = {
  /** @param {OpArgs["open"]} args */
  async open({ file, internalKeys }) {
    closeTable();
    table = await sf.openTableFrom(file, { internalKeys });
    keyPages = new KeyPages(table);
    return {
      backend: sf.backend,
      format: table.format,
      footer: table.footer,
      metaindex: table.metaindex,
      properties: plainProperties(table.properties),
      filter: table.filter,
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

  /** @param {OpArgs["keys"]} args */
  async keys({ start, size }) {
    if (keyPages === null) throw new Error("no file is open");
    return keyPages.page(start, size);
  },

  /**
   * @param {OpArgs["verify"]} _args
   * @param {(progress: VerifyProgress) => void} progress
   */
  async verify(_args, progress) {
    if (table === null) throw new Error("no file is open");
    verifying?.abort();
    const controller = new AbortController();
    verifying = controller;
    let last = 0;
    const report = await verifyTable(table, {
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

  /** @param {OpArgs["probeBuilt"]} args */
  async probeBuilt({ key, hex }) {
    if (built === null) throw new Error("build a filter first");
    return built.mayContain(keyBytes(key, hex));
  },
};

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
