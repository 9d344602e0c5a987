// @ts-check
// What crosses postMessage between the page and its worker (worker.mjs): the requests, each op's
// arguments, the messages back, and the shapes of what the views receive; errors and keys in the
// form they cross in.
/** @import { Backend, BlobIndex, BlockRange, DiffProgress, FilterFormat, TableRegion, VerifyProgress, WideColumn, WriteOptions } from "../../dist/esm/platform/browser.js" */
import { parseHex } from "../../dist/esm/tools/format.js";

/**
 * An error as the page receives it.
 * @typedef {object} PlainError
 * @property {string} code
 * @property {string} message
 * @property {number | null} offset
 */

/**
 * Each op's arguments, as the page posts them next to `id` and `op` (a table's `file`: a File, or
 * the http(s) URL the page was given with ?url=).
 * @typedef {object} OpArgs
 * @property {{ file: File | string, internalKeys: boolean }} open
 * @property {{ key: string, hex: boolean }} probe
 * @property {{ seek: SeekText | null, size: number }} seek
 * @property {{ page: number, size: number }} entries
 * @property {{ offset: number, size: number }} seekBlock
 * @property {{}} layout
 * @property {{ start: number, size: number }} indexEntries
 * @property {{}} rangeDeletions
 * @property {{ jobs: number | null }} verify
 * @property {{ file: File | string, internalKeys: boolean, range: Required<BlockRange>, maxReported: number, metaBlocks?: boolean }} verifyRange
 * @property {{}} cancelVerify
 * @property {{ a: File | string, b: File | string, internalKeys: boolean }} diff
 * @property {{ fpRate: number }} filterAdvice
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
 * What op K reports while it runs: the diff its merge's progress, verify (and verifyRange) theirs.
 * @template {OpName} K
 * @typedef {K extends "diff" ? DiffProgress : VerifyProgress} OpProgress
 */

/**
 * What the page posts.
 * @typedef {{ [K in OpName]: { id: number, op: K } & OpArgs[K] }[OpName]} WorkerRequest
 */

/**
 * What the worker posts: first `ready` (the backend), then for each request its progress (verify
 * and diff only) and its result or error. The fields a message lacks are typed undefined, so that the page
 * can test each field.
 * @typedef {{ ready: Backend, id?: undefined, progress?: undefined, result?: undefined, error?: undefined }
 *   | { ready?: undefined, id: number, progress: VerifyProgress | DiffProgress, result?: undefined, error?: undefined }
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
 * Errors as plain objects: SstFilterError's code and offset survive postMessage.
 * @param {unknown} thrown
 * @returns {PlainError}
 */
export function plainError(thrown) {
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
 * A key as the page sends it, typed as text or hex.
 * @param {string} text
 * @param {boolean} hex
 * @returns {Uint8Array}
 */
export function keyBytes(text, hex) {
  if (!hex) return new TextEncoder().encode(text);
  const bytes = parseHex(text);
  if (bytes === null) throw Object.assign(new Error(`not hex: ${JSON.stringify(text)}`), { code: "BAD_KEY" });
  return bytes;
}

// Values longer than this reach the page cut short (the view shows their size).
export const VALUE_PREVIEW_BYTES = 4096;
