// @ts-check
// The table view's range-deletions card: the rocksdb.range_del block's tombstones (the first ones
// of a large block).
import { count } from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
import { call } from "../worker-calls.mjs";
import { tableView } from "./table-state.mjs";
/** @import { OpResult } from "../worker.mjs" */

/** @type {OpResult<"rangeDeletions">} */
let rangeDeletions = { rows: [], total: 0 };

/** Reads the open table's range deletions and shows them (the card hides when there are none). */
export async function showRangeDeletions() {
  const mine = tableView.generation;
  const result = await call("rangeDeletions");
  if (mine !== tableView.generation) return;
  rangeDeletions = result;
  renderRangeDeletions();
}

/** Draws the range deletions read (again: the key mode changed). */
export function renderRangeDeletions() {
  const { rows, total } = rangeDeletions;
  $("range-dels").hidden = total === 0;
  const mode = $("keys-mode").value;
  /** @param {Uint8Array} key */
  const keyCell = (key) => {
    const { text, hex } = keyText(key, mode);
    return el("td", { className: `key${hex ? " hex" : ""}`, textContent: text });
  };
  $("range-dels-body").replaceChildren(
    ...rows.map((d, i) =>
      el(
        "tr",
        {},
        el("td", { className: "num muted", textContent: count(i) }),
        keyCell(d.start),
        keyCell(d.end),
        el("td", { className: "num seq", textContent: d.seq.toString() }),
      ),
    ),
  );
  $("range-dels-caption").textContent =
    `${count(total)} in the rocksdb.range_del block` +
    (total > rows.length ? `, the first ${count(rows.length)} shown` : "");
}

/** Empties and hides the card (another table is opening). */
export function clearRangeDeletions() {
  rangeDeletions = { rows: [], total: 0 };
  $("range-dels-body").replaceChildren();
  $("range-dels").hidden = true;
}
