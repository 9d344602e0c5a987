// @ts-check
// The table view's format, properties and metaindex cards: the footer's facts, the properties
// block (filtered by name) and the meta blocks the metaindex names.
import { count, keyOrderText } from "../../dist/esm/tools/format.js";
import { $, el, facts, handleText } from "../dom.mjs";
import { renderFilter } from "./filter.mjs";
import { tableView } from "./table-state.mjs";
/** @import { TableInfo } from "./table-state.mjs" */

/**
 * Fills the table view's cards for a table just opened.
 * @param {TableInfo} info
 */
export function renderTable(info) {
  const { footer, filter } = info;
  const rocksdb = info.format === "rocksdb";
  facts($("format-facts"), [
    ["format", rocksdb ? "RocksDB block-based table" : "LevelDB table"],
    ["format_version", rocksdb ? String(footer.formatVersion) : "— (LevelDB)"],
    ["checksum", footer.checksum],
    ["metaindex", handleText(footer.metaindexHandle)],
    ["index", handleText(footer.indexHandle)],
    ["order", keyOrderText(info.order)],
    // A text property.
    ["compression", /** @type {string} */ (info.properties["rocksdb.compression"] ?? "per block")],
  ]);
  renderFilter(info, info.summary);
  renderProperties(info.properties);
  $("meta-body").replaceChildren(
    ...Object.entries(info.metaindex).map(([name, [offset, size]]) =>
      el(
        "tr",
        {},
        el("td", { textContent: name }),
        el("td", { className: "num", textContent: count(offset) }),
        el("td", { className: "num", textContent: count(size) }),
      ),
    ),
  );
  $("probe-key").placeholder = filter ? "user key, e.g. one from the list below" : "this file has no filter";
}

/** @param {TableInfo["properties"]} properties */
function renderProperties(properties) {
  const needle = $("props-filter").value.trim().toLowerCase();
  const rows = Object.entries(properties)
    .filter(([name]) => name.toLowerCase().includes(needle))
    .map(([name, value]) =>
      el(
        "tr",
        {},
        el("th", { textContent: name }),
        el("td", { textContent: typeof value === "object" ? `0x${value.hex}` : String(value) }),
      ),
    );
  if (Object.keys(properties).length === 0) {
    rows.push(
      el("tr", {}, el("td", { className: "muted", textContent: "LevelDB tables have no properties block." })),
    );
  }
  $("props-body").replaceChildren(...rows);
}

/** Wires the properties card's name filter. */
export function initTableFacts() {
  $("props-filter").addEventListener(
    "input",
    () => tableView.opened && renderProperties(tableView.opened.info.properties),
  );
}
