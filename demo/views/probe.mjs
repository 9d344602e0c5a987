// @ts-check
// The table view's probe box: a key's answer from the table's filter, and the route it took there.
import { count } from "../../dist/esm/tools/format.js";
import { $, el, handleText, keyText } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
import { tableView } from "./table-state.mjs";
/** @import { LookupRoute } from "../../dist/esm/platform/browser.js" */
/** @import { OpResult } from "../worker.mjs" */

/** @type {Record<LookupRoute, (e: OpResult<"probe">) => string>} */
const ROUTES = {
  "full-filter": () => "the full filter",
  partition: (e) => `filter partition ${e.partition} of ${count(e.partitions)}`,
  // The "block-filter" route always names its data block.
  "block-filter": (e) =>
    `the filter of the data block ${handleText(/** @type {[number, number]} */ (e.dataBlock))}`,
  "no-filter": () => "no filter: the file has none that can check this key",
  "outside-prefix-domain": () => "no filter: the key is outside the prefix extractor's domain",
  "after-last-key": () => "the index: the key sorts after the file's last key",
  // Only a read with another prefix extractor than the table's (the database's OPTIONS) gets it.
  "prefix-extractor-changed": () => "no probe: the database's prefix extractor is not the table's",
  "any-filter": () =>
    "every filter that could hold the key: the key order is unknown, so answers are conservative",
};

/** Hides the last probe's answer (another table is opening). */
export function clearProbe() {
  $("probe-result").hidden = true;
}

/** Wires the probe form. */
export function initProbe() {
  $("probe-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!tableView.opened) return;
    const mine = tableView.generation;
    const out = $("probe-result");
    try {
      const e = await call("probe", { key: $("probe-key").value, hex: $("probe-mode").value === "hex" });
      if (mine !== tableView.generation) return;
      showError(null);
      const then =
        e.mayContain && e.dataBlock && e.route !== "block-filter"
          ? `; a lookup goes on to the data block ${handleText(e.dataBlock)}`
          : "";
      const probed =
        e.probed.length > 0 && e.probed.length !== e.keyLength
          ? ` (probed with the prefix “${keyText(e.probed, "utf8").text}”)`
          : "";
      out.replaceChildren(
        el("span", {
          className: `verdict ${e.mayContain ? "maybe" : "no"}`,
          textContent: e.mayContain ? "may be in this file" : "definitely not in this file",
        }),
        el("span", { className: "route", textContent: `answered by ${ROUTES[e.route](e)}${probed}${then}` }),
      );
      out.hidden = false;
    } catch (error) {
      out.hidden = true;
      showError(error, "probe");
    }
  });
}
