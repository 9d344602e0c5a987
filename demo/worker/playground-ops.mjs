// @ts-check
// The playgrounds' ops: a filter built from typed keys (and probed), a table written from typed
// entries.
import { compareBytes, estimateFalsePositiveRate } from "../../dist/esm/platform/browser.js";
import { sf } from "./backend.mjs";
import { keyBytes } from "./protocol.mjs";
/** @import { Filter } from "../../dist/esm/platform/browser.js" */
/** @import { OpArgs } from "./protocol.mjs" */

/** @type {Filter | null} */
let built = null; // the playground's filter

export const playgroundOps = {
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
