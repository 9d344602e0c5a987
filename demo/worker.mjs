// The viewer's Web Worker: every wasm call and file read happens here, so the page never freezes.
// Protocol: the page posts { id, op, ...args }; the worker answers { id, result } or
// { id, error: { code, message, offset } }, and { id, progress } while a long operation runs.
import {
  estimateFalsePositiveRate,
  init,
  summarizeTableFilter,
  verifyTable,
} from "../dist/esm/platform/browser.js";
import { parseHex } from "../dist/esm/tools/format.js";

const sf = await init();

let table = null; // the open AsyncTable
let keyPages = null; // its key walk (see KeyPages)
let verifying = null; // AbortController of the running verification
let built = null; // the playground's filter

/** Errors as plain objects: SstFilterError's code and offset survive postMessage. */
function plainError(error) {
  return {
    // DOMExceptions (an abort) carry a numeric legacy code: their name says more.
    code: typeof error?.code === "string" ? error.code : (error?.name ?? "ERROR"),
    message: error?.message ?? String(error),
    offset: error?.offset ?? null,
  };
}

/** bigints (properties above 2^53) cannot be cloned into JSON-like displays: decimal strings. */
function plainProperties(properties) {
  return Object.fromEntries(
    Object.entries(properties).map(([name, value]) => [
      name,
      typeof value === "bigint" ? value.toString() : value,
    ]),
  );
}

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
  constructor(t) {
    this.table = t;
    this.walk = t.dataBlocks();
    this.blocks = []; // { offset, size, first } per data block walked
    this.cache = new Map(); // block number -> keys
    this.total = 0; // keys walked so far
    this.done = false;
  }

  remember(number, keys) {
    this.cache.set(number, keys);
    if (this.cache.size > MAX_CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value);
  }

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

  /** Block numbers whose keys overlap [start, end). */
  blocksFor(start, end) {
    const out = [];
    for (let b = 0; b < this.blocks.length; b++) {
      const { first } = this.blocks[b];
      const last = b + 1 < this.blocks.length ? this.blocks[b + 1].first : this.total;
      if (last > start && first < end) out.push(b);
    }
    return out;
  }

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

  async page(start, size) {
    await this.advanceTo(start + size);
    const numbers = this.blocksFor(start, start + size);
    await this.refill(numbers);
    const rows = [];
    for (const b of numbers) {
      const { offset, size: blockSize, first } = this.blocks[b];
      this.cache.get(b).forEach((key, i) => {
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

  async probe({ key, hex }) {
    if (table === null) throw new Error("no file is open");
    const bytes = keyBytes(key, hex);
    const explanation = await table.explain(bytes);
    return { ...explanation, keyLength: bytes.length, partitions: table.filter?.partitions ?? 0 };
  },

  async keys({ start, size }) {
    if (keyPages === null) throw new Error("no file is open");
    return keyPages.page(start, size);
  },

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

  async probeBuilt({ key, hex }) {
    if (built === null) throw new Error("build a filter first");
    return built.mayContain(keyBytes(key, hex));
  },
};

self.onmessage = async ({ data }) => {
  const { id, op, ...args } = data;
  try {
    const result = await ops[op](args, (progress) => self.postMessage({ id, progress }));
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: plainError(error) });
  }
};

self.postMessage({ ready: sf.backend });
