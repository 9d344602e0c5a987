// @ts-check
// The table view's contents card: entries a page at a time, from a seek (a key, a prefix, or the
// first key of a data block) on.
import { count, toHex } from "../../dist/esm/tools/format.js";
import { $, el, keyText, reveal } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
import { timestampText, typeCell, valueCell } from "./entry-cells.mjs";
import { renderRangeDeletions } from "./range-deletions.mjs";
import { tableView } from "./table-state.mjs";
/** @import { EntryRow, SeekText } from "../worker/protocol.mjs" */
/** @import { OpResult } from "../worker.mjs" */

const PAGE_SIZE = 100; // entries per page of the contents view

/**
 * What the contents view shows: where it starts (a seek, null: the whole table; `where` when it
 * starts at a data block), the page and its rows.
 * @type {{ seek: SeekText | null, where: string | null, page: number, rows: EntryRow[], last: boolean }}
 */
let contents = { seek: null, where: null, page: 0, rows: [], last: true };

/** The entries of the whole table, where the file records or Verify counted them. */
function totalEntries() {
  if (tableView.opened?.verifiedKeys !== undefined) return tableView.opened.verifiedKeys;
  const properties = tableView.opened?.info.properties ?? {};
  const entries = properties["rocksdb.num.entries"];
  // RocksDB counts the range deletions among the entries; the data blocks hold the others.
  const rangeDeletions = properties["rocksdb.num.range-deletions"];
  if (typeof entries !== "number") return null;
  return entries - (typeof rangeDeletions === "number" ? rangeDeletions : 0);
}

/**
 * Runs `load` (a worker call for a page of entries) and shows the page it brings.
 * @param {() => Promise<OpResult<"entries">>} load
 * @param {Omit<typeof contents, "rows" | "last">} view
 * @returns {Promise<boolean>} whether the page is shown
 */
async function showPage(load, view) {
  if (!tableView.opened) return false;
  const mine = tableView.generation;
  try {
    const result = await load();
    if (mine !== tableView.generation) return false;
    showError(null);
    contents = { ...view, ...result };
    renderEntries();
    return true;
  } catch (error) {
    if (mine === tableView.generation) showError(error, "reading entries");
    return false;
  }
}

/**
 * Starts the contents view at `seek` (null: the whole table).
 * @param {SeekText | null} seek
 */
export function startView(seek) {
  return showPage(() => call("seek", { seek, size: PAGE_SIZE }), { seek, where: null, page: 0 });
}

/** @param {number} page a page of the view shown */
function showEntries(page) {
  return showPage(() => call("entries", { page, size: PAGE_SIZE }), { ...contents, page });
}

/** The seek box as the worker takes it; null when it is empty (the whole table). */
function seekFromForm() {
  const key = $("seek-key").value;
  const kind = /** @type {SeekText["kind"]} */ ($("seek-kind").value);
  if (key === "" && kind === "from") return null;
  return { kind, key, hex: $("seek-mode").value === "hex" };
}

/**
 * Shows the contents view from the first entry of the data block at `offset`, and scrolls to it.
 * @param {number} offset
 */
export async function showBlock(offset) {
  /** @type {Uint8Array} */
  let from = new Uint8Array(0);
  const shown = await showPage(
    async () => {
      const { from: key, ...page } = await call("seekBlock", { offset, size: PAGE_SIZE });
      from = key;
      return page;
    },
    { seek: null, where: `from data block @ ${count(offset)}`, page: 0 },
  );
  if (!shown) return;
  const { text, hex } = keyText(from, "utf8");
  $("seek-kind").value = "from";
  $("seek-key").value = from.length === 0 ? "" : hex ? toHex(from) : text;
  $("seek-mode").value = hex ? "hex" : "utf8";
  reveal("contents");
}

/** Draws the page of entries shown (again: the key or value mode changed, Verify counted them). */
export function renderEntries() {
  const { rows, page, seek, where, last } = contents;
  const mode = $("keys-mode").value;
  const timestamps = rows.some((r) => r.timestamp !== undefined);
  $("timestamp-head").hidden = !timestamps;
  $("entries-body").replaceChildren(
    ...rows.map((row) => {
      const { text, hex } = keyText(row.key, mode);
      const key = el("td", {
        className: `key${hex ? " hex" : ""}`,
        textContent: text,
        title: "click to probe",
      });
      key.addEventListener("click", () => {
        $("probe-key").value = hex ? toHex(row.key) : text;
        $("probe-mode").value = hex ? "hex" : "utf8";
        $("probe-form").requestSubmit();
      });
      return el(
        "tr",
        {},
        el("td", { className: "num muted", textContent: count(row.index) }),
        key,
        timestamps
          ? el("td", { className: "num", textContent: row.timestamp ? timestampText(row.timestamp) : "" })
          : null,
        el("td", { className: "num seq", textContent: row.seq === undefined ? "—" : row.seq.toString() }),
        typeCell(row),
        valueCell(row),
      );
    }),
  );
  if (rows.length === 0) {
    $("entries-body").append(
      el("tr", {}, el("td", { colSpan: 6, className: "muted", textContent: "no entries here" })),
    );
  }
  const total = seek === null && where === null ? totalEntries() : null;
  const pages = total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE));
  $("entries-page").textContent =
    `page ${count(page + 1)}${pages === null ? (last ? ` of ${count(page + 1)}` : "") : ` of ${count(pages)}`}`;
  $("entries-caption").textContent =
    where ??
    (seek === null
      ? total === null
        ? "every entry, in file order"
        : `${count(total)} entries, in file order`
      : `${seek.kind === "prefix" ? "keys with the prefix" : "from"} ${seek.hex ? `0x${seek.key}` : `“${seek.key}”`}`);
  $("entries-first").disabled = $("entries-prev").disabled = page === 0;
  $("entries-next").disabled = last;
}

/** Empties the entries (another table is opening). */
export function clearEntries() {
  $("entries-body").replaceChildren();
}

/** Wires the page buttons, the key and value modes and the seek box. */
export function initContents() {
  $("entries-first").addEventListener("click", () => showEntries(0));
  $("entries-prev").addEventListener("click", () => showEntries(Math.max(0, contents.page - 1)));
  $("entries-next").addEventListener("click", () => showEntries(contents.page + 1));
  $("keys-mode").addEventListener("change", () => {
    renderEntries();
    renderRangeDeletions();
  });
  $("values-mode").addEventListener("change", () => renderEntries());
  $("seek-form").addEventListener("submit", (event) => {
    event.preventDefault();
    startView(seekFromForm());
  });
  $("seek-clear").addEventListener("click", () => {
    $("seek-key").value = "";
    $("seek-kind").value = "from";
    startView(null);
  });
}
