// @ts-check
// A Get's route for the database view (database.mjs): the step that decided and the result line
// with the value found (each step's words, a badge for its box and a line for the route list, are
// sstfilter/tools' getStepVerdict and getStepText).
import { count, plural } from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
/** @import { GetExplanation } from "../../dist/esm/platform/browser.js" */

/**
 * The step that decided the Get (its value or deletion), or -1 (not found, or merge operands
 * gathered from several files).
 * @param {GetExplanation} explanation
 */
export function decidingStep(explanation) {
  const { outcome } = explanation.result;
  if (outcome !== "found" && outcome !== "deleted") return -1;
  for (let i = explanation.steps.length - 1; i >= 0; i--) {
    const entry = explanation.steps[i].entry;
    if (entry !== null && entry !== "none" && entry !== "merge") return i;
  }
  return -1;
}

// Values longer than this show cut short (their size is given).
const VALUE_SHOWN_CHARS = 200;

/**
 * A value as the result line shows it: text where printable, else hex; cut to VALUE_SHOWN_CHARS.
 * @param {Uint8Array} bytes
 * @param {number} size the whole value's size (the worker hands over the first 4 KiB)
 */
function valueCode(bytes, size) {
  const { text, hex } = keyText(bytes, "utf8");
  const cut = size > bytes.length || text.length > VALUE_SHOWN_CHARS;
  return el("code", {
    className: `get-value${hex ? " hex" : ""}`,
    textContent: cut ? `${text.slice(0, VALUE_SHOWN_CHARS)}…` : text,
  });
}

/**
 * Shows the Get's result line and the summary of its route.
 * @param {GetExplanation & { valueSize?: number }} explanation
 */
export function showResult(explanation) {
  const { result, steps } = explanation;
  const out = $("get-result");
  const decided = decidingStep(explanation);
  // "100 bytes · seq 1234 in 000015.sst": the deciding entry.
  const source = [
    result.outcome === "found" ? plural(explanation.valueSize ?? result.value?.length ?? 0, "byte") : "",
    result.sequence === null ? "" : `seq ${result.sequence}`,
    decided >= 0 ? `in ${steps[decided].file}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  /** @type {(Node | string)[]} */
  const parts = [];
  if (result.outcome === "found" && result.value !== null) {
    parts.push(
      el("span", { className: "verdict found", textContent: "found" }),
      valueCode(result.value, explanation.valueSize ?? result.value.length),
      el("span", { className: "muted", textContent: source }),
    );
  } else if (result.outcome === "deleted") {
    parts.push(
      el("span", { className: "verdict bad", textContent: "deleted" }),
      el("span", { className: "muted", textContent: source }),
    );
  } else if (result.outcome === "merge-operands") {
    // No merge operator runs here: the operands (and the value they apply to, if any) as stored.
    parts.push(
      el("span", {
        className: "verdict maybe",
        textContent: plural(result.operands.length, "merge operand"),
      }),
      el("span", { className: "muted", textContent: "newest first; no merge operator runs here" }),
      ...result.operands.map((o) => valueCode(o, o.length)),
    );
    if (result.value !== null) {
      parts.push(
        el("span", { className: "muted", textContent: "on the value" }),
        valueCode(result.value, explanation.valueSize ?? result.value.length),
      );
    }
  } else {
    parts.push(el("span", { className: "verdict no", textContent: "not found" }));
  }
  out.replaceChildren(...parts);
  out.dataset.outcome = result.outcome;
  out.hidden = false;
  const tables = steps.filter((s) => s.where === "table");
  const filtered = tables.filter((s) => s.filter === "no").length;
  const outside = tables.filter((s) => !s.inRange).length;
  const falsePositives = tables.filter((s) => s.filter === "maybe" && s.entry === "none").length;
  const blocks = steps.reduce((n, s) => n + s.blocksRead, 0);
  $("get-summary").textContent =
    `${count(steps.length)} consulted: ${count(steps.length - tables.length)} memtable, ${plural(tables.length, "table")}` +
    ` (${count(outside)} out of range, ${count(filtered)} ruled out by their filter,` +
    ` ${plural(falsePositives, "false positive")}) · ${plural(blocks, "block")} read`;
}
