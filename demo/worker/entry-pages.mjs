// @ts-check
// The contents view's side in the worker: pages of a table's entries read a page at a time, each
// from an anchor the page before recorded, and the anchor a view from a data block starts at.
import { compareBytes } from "../../dist/esm/platform/browser.js";
import { decodeEntryValue } from "../../dist/esm/tools/format.js";
import { sf } from "./backend.mjs";
import { plainError, VALUE_PREVIEW_BYTES } from "./protocol.mjs";
/** @import { AsyncTable, Entry, TableRegion } from "../../dist/esm/platform/browser.js" */
/** @import { DecodedValue, EntryRow } from "./protocol.mjs" */

/**
 * `entry`'s value decoded where its type has a structure (sstfilter/tools' decodeEntryValue), as a
 * page carries it; undefined for other types.
 * @param {Entry} entry
 * @returns {DecodedValue | undefined}
 */
function decodedValue(entry) {
  const decoded = decodeEntryValue(sf, entry);
  if (decoded === undefined || "blobIndex" in decoded) return decoded;
  if ("error" in decoded) return { error: plainError(decoded.error) };
  // The page carries each column's first bytes, as it does values.
  return { columns: decoded.columns.map((c) => ({ ...c, value: c.value.slice(0, VALUE_PREVIEW_BYTES) })) };
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
export class EntryPages {
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
export async function blockAnchor(t, regions, offset) {
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
