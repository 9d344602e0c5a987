// @ts-check
// The table view's probe box: a key's answer from the table's filter, and the route it took there.
import { lookupRouteSentence } from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
import { tableView } from "./table-state.mjs";
/** @import { OpResult } from "../worker.mjs" */

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
      const probed =
        e.probed.length > 0 && e.probed.length !== e.keyLength
          ? ` (probed with the prefix “${keyText(e.probed, "utf8").text}”)`
          : "";
      out.replaceChildren(
        el("span", {
          className: `verdict ${e.mayContain ? "maybe" : "no"}`,
          textContent: e.mayContain ? "may be in this file" : "definitely not in this file",
        }),
        el("span", { className: "route", textContent: lookupRouteSentence(e, e.partitions, probed) }),
      );
      out.hidden = false;
    } catch (error) {
      out.hidden = true;
      showError(error, "probe");
    }
  });
}
