// @ts-check
// A Get's route in words, for the database view (database.mjs): what each file consulted answered
// (a class and a badge for its box, a line for the route list), the step that decided, and the
// result line with the value found.
import { count, plural } from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
/** @import { GetExplanation, RouteStep } from "../../dist/esm/platform/browser.js" */

/**
 * What one step of a Get's route found, as a class name (its colour) and a short badge.
 * @param {RouteStep} step
 * @returns {{ verdict: "skip" | "no" | "miss" | "hit", badge: string }}
 */
export function stepVerdict(step) {
  if (step.where === "table" && !step.inRange) return { verdict: "skip", badge: "out of range" };
  if (step.filter === "no") return { verdict: "no", badge: "filter: no" };
  if (step.entry === null || step.entry === "none") {
    // A filter that said maybe for a key the file lacks: a false positive, paid with a block read.
    return { verdict: "miss", badge: step.filter === "maybe" ? "maybe: not here" : "not here" };
  }
  return { verdict: "hit", badge: ENTRY_WORDS[step.entry] };
}

/** @type {Record<NonNullable<RouteStep["entry"]>, string>} */
const ENTRY_WORDS = {
  value: "value",
  deletion: "deletion",
  "single-deletion": "single deletion",
  merge: "merge operand",
  "range-deletion": "range deletion",
  none: "nothing",
};

/** @type {Record<NonNullable<RouteStep["filter"]>, string>} */
const FILTER_WORDS = {
  no: "filter: definitely not here",
  maybe: "filter: maybe",
  none: "no filter",
};

/**
 * One line of the route list: where, then what the file answered.
 * @param {RouteStep} step
 */
export function stepText(step) {
  const where = step.where === "memtable" ? `memtable (${step.file})` : `L${step.level} ${step.file}`;
  /** @type {string[]} */
  const parts = [];
  if (step.where === "table" && !step.inRange) parts.push("key outside the file's range: not opened");
  else if (step.filter !== null) parts.push(FILTER_WORDS[step.filter]);
  if (step.entry !== null) {
    const seq = step.sequence === null ? "" : ` (seq ${step.sequence})`;
    parts.push(step.entry === "none" ? "no entry for the key" : `${ENTRY_WORDS[step.entry]}${seq}`);
  }
  if (step.blocksRead > 0) parts.push(`${plural(step.blocksRead, "block")} read`);
  return `${where} — ${parts.join(" · ")}`;
}

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
