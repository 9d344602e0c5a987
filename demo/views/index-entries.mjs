// @ts-check
// The table view's index card: one entry per data block, with the separator the index holds for
// it, a page at a time; a click shows the contents from that block on.
import { count } from "../../dist/esm/tools/format.js";
import { $, el, keyText, reveal } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
import { showBlock } from "./contents.mjs";
import { tableView } from "./table-state.mjs";

const INDEX_PAGE_SIZE = 100; // index entries per page

let indexStart = 0;

/**
 * Shows the index entries from `start` on, and scrolls to them.
 * @param {number} start
 */
export async function showIndex(start) {
  const mine = tableView.generation;
  try {
    const { rows, total } = await call("indexEntries", { start, size: INDEX_PAGE_SIZE });
    if (mine !== tableView.generation) return;
    indexStart = start;
    const mode = $("keys-mode").value;
    $("index-body").replaceChildren(
      ...rows.map((r) => {
        const { text, hex } = keyText(r.separator, mode);
        const row = el(
          "tr",
          { className: "region-row", title: "click: the contents from this block's first key" },
          el("td", { className: "num muted", textContent: count(r.index) }),
          el("td", { className: `key${hex ? " hex" : ""}`, textContent: text }),
          el("td", { className: "num", textContent: count(r.offset) }),
          el("td", { className: "num", textContent: count(r.size) }),
        );
        row.addEventListener("click", () => showBlock(r.offset));
        return row;
      }),
    );
    $("index-caption").textContent =
      `${count(total)} data blocks, each with the separator its index entry holds`;
    $("index-page").textContent =
      `${count(start)}–${count(Math.max(start, start + rows.length - 1))} of ${count(total)}`;
    $("index-prev").disabled = start === 0;
    $("index-next").disabled = start + INDEX_PAGE_SIZE >= total;
    reveal("index-card");
  } catch (error) {
    if (mine === tableView.generation) showError(error, "reading the index");
  }
}

/** Empties and hides the card (another table is opening). */
export function clearIndex() {
  $("index-body").replaceChildren();
  $("index-card").hidden = true;
}

/** Wires the page buttons. */
export function initIndexEntries() {
  $("index-prev").addEventListener("click", () => showIndex(Math.max(0, indexStart - INDEX_PAGE_SIZE)));
  $("index-next").addEventListener("click", () => showIndex(indexStart + INDEX_PAGE_SIZE));
}
