// @ts-check
// The contents view's cells for an entry's type and value: the ValueType as a badge, the value as
// text, hex or JSON, a blob index and a wide-column entity in words, a user-defined timestamp.
import { blobIndexText, count, printableText, toHex, withoutOffset } from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
/** @import { BlobIndex } from "../../dist/esm/platform/browser.js" */
/** @import { DecodedValue, EntryRow } from "../worker/protocol.mjs" */

// RocksDB's ValueType names (db/dbformat.h) get a colour each; other types show their number.
const TYPE_CLASSES = new Set([
  "put",
  "delete",
  "single-delete",
  "merge",
  "blob-index",
  "wide-column-entity",
  "delete-with-timestamp",
  "value-preferred-seqno",
]);

/** @param {EntryRow} row */
export function typeCell(row) {
  if (row.type === undefined) return el("td", { className: "muted", textContent: "—" });
  const known = TYPE_CLASSES.has(row.type);
  return el(
    "td",
    {},
    el("span", {
      className: `badge ${known ? `type-${row.type}` : "type-unknown"}`,
      textContent: known ? row.type : `type ${row.typeCode}`,
      title: `ValueType 0x${(row.typeCode ?? 0).toString(16).padStart(2, "0")}`,
    }),
  );
}

// Values shown inline up to this many characters; a click shows the rest (as much as the worker sent).
const VALUE_INLINE_CHARS = 160;

/** @param {string} text shown inline: its first VALUE_INLINE_CHARS characters */
const inline = (text) => (text.length > VALUE_INLINE_CHARS ? `${text.slice(0, VALUE_INLINE_CHARS)}…` : text);

/**
 * The value as `mode` asks: UTF-8 text (hex where it is not printable), hex, or pretty-printed JSON
 * where the value parses as JSON. { text, className } for the cell.
 * @param {Uint8Array} value
 * @param {string} mode
 */
function valueText(value, mode) {
  if (mode === "json") {
    const text = printableText(value);
    if (text !== null) {
      try {
        return { text: JSON.stringify(JSON.parse(text), null, 2), className: "json" };
      } catch {
        // not JSON: shown as text
      }
    }
  }
  const text = mode === "hex" ? null : printableText(value);
  return text === null ? { text: toHex(value), className: "hex" } : { text, className: "" };
}

// A wide-column entity shows its first columns (an entity may hold thousands).
const COLUMNS_SHOWN = 16;

/**
 * A decoded structured value: the blob index in words, each wide column on a line of its own (name
 * as keys show, value as values show), or why the value does not decode (with its bytes in hex).
 * @param {EntryRow} row
 * @param {DecodedValue} decoded
 * @param {string} mode how values show
 */
function decodedCell(row, decoded, mode) {
  if (decoded.blobIndex) {
    return el(
      "td",
      { className: "value decoded" },
      el("span", { textContent: blobIndexText(decoded.blobIndex, (v) => valueText(v, mode).text) }),
    );
  }
  if (decoded.columns) {
    const { columns } = decoded;
    if (columns.length === 0) return el("td", { className: "value muted", textContent: "(no columns)" });
    const more = columns.length - COLUMNS_SHOWN;
    return el(
      "td",
      { className: "value decoded" },
      ...columns.slice(0, COLUMNS_SHOWN).map((column) =>
        el(
          "div",
          { className: "column" },
          el("span", {
            className: "column-name",
            textContent:
              column.name.length === 0 ? "(default)" : keyText(column.name, $("keys-mode").value).text,
          }),
          el("span", {
            textContent: column.blobIndex
              ? blobIndexText(column.blobIndex, (v) => valueText(v, mode).text)
              : inline(valueText(column.value, mode).text),
          }),
        ),
      ),
      more > 0 ? el("div", { className: "muted", textContent: `… and ${count(more)} more columns` }) : null,
    );
  }
  return el(
    "td",
    { className: "value hex" },
    el("span", { textContent: toHex(row.value) }),
    el("span", {
      className: "badge type-delete",
      textContent: `does not decode: ${decoded.error?.code} ${withoutOffset(decoded.error?.message ?? "")}`,
    }),
  );
}

/** @param {EntryRow} row */
export function valueCell(row) {
  const mode = $("values-mode").value;
  if (row.decoded) return decodedCell(row, row.decoded, mode);
  if (row.valueSize === 0) return el("td", { className: "value muted", textContent: "(empty)" });
  const { text, className } = valueText(row.value, mode);
  const cut = row.valueSize > row.value.length || text.length > VALUE_INLINE_CHARS;
  const shown = el("span", { textContent: cut ? `${text.slice(0, VALUE_INLINE_CHARS)}…` : text });
  const cell = el("td", { className: className ? `value ${className}` : "value" }, shown);
  if (cut) {
    cell.append(el("span", { className: "size muted", textContent: ` ${count(row.valueSize)} bytes` }));
    cell.title = "click to show more";
    cell.classList.add("more");
    cell.addEventListener(
      "click",
      () => {
        shown.textContent = row.valueSize > row.value.length ? `${text}…` : text;
        cell.classList.remove("more");
        cell.title = "";
      },
      { once: true },
    );
  }
  return cell;
}

/**
 * A user-defined timestamp: the u64 number it stores (little-endian, as RocksDB's
 * BytewiseComparator.u64ts), or hex for another size.
 * @param {Uint8Array} timestamp
 */
export function timestampText(timestamp) {
  if (timestamp.length !== 8) return toHex(timestamp);
  return new DataView(timestamp.buffer, timestamp.byteOffset, 8).getBigUint64(0, true).toString();
}
