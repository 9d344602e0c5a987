// @ts-check
// What the viewer's modules share for building the page: elements by id, new elements, keys and
// block handles as text, lists of facts, and scrolling to a card.
import { printableText, toHex } from "../dist/esm/tools/format.js";

/**
 * The elements of index.html that are more than an HTMLElement to the views, by id.
 * @typedef {{
 *   file: HTMLInputElement,
 *   folder: HTMLInputElement,
 *   "user-keys": HTMLInputElement,
 *   "probe-form": HTMLFormElement,
 *   "probe-key": HTMLInputElement,
 *   "probe-mode": HTMLSelectElement,
 *   heat: HTMLCanvasElement,
 *   verify: HTMLButtonElement,
 *   advice: HTMLButtonElement,
 *   "advice-rate": HTMLInputElement,
 *   map: HTMLCanvasElement,
 *   "keys-mode": HTMLSelectElement,
 *   "values-mode": HTMLSelectElement,
 *   "seek-form": HTMLFormElement,
 *   "seek-kind": HTMLSelectElement,
 *   "seek-key": HTMLInputElement,
 *   "seek-mode": HTMLSelectElement,
 *   "entries-first": HTMLButtonElement,
 *   "entries-prev": HTMLButtonElement,
 *   "entries-next": HTMLButtonElement,
 *   "index-prev": HTMLButtonElement,
 *   "index-next": HTMLButtonElement,
 *   "props-filter": HTMLInputElement,
 *   "build-keys": HTMLTextAreaElement,
 *   "build-format": HTMLSelectElement,
 *   "build-bits": HTMLInputElement,
 *   "build-hex": HTMLInputElement,
 *   download: HTMLAnchorElement,
 *   "built-probe-key": HTMLInputElement,
 *   "write-lines": HTMLTextAreaElement,
 *   "write-format": HTMLSelectElement,
 *   "write-filter": HTMLSelectElement,
 *   "write-compression": HTMLSelectElement,
 *   "verify-jobs": HTMLSelectElement,
 *   "diff-file": HTMLInputElement,
 *   "write-sort": HTMLInputElement,
 *   "write-hex": HTMLInputElement,
 *   "write-download": HTMLAnchorElement,
 * }} Elements
 */

/**
 * @template {string} Id
 * @typedef {Id extends keyof Elements ? Elements[Id] : HTMLElement} ElementById
 */

/**
 * The element with this id (every id the views ask for is in index.html).
 * @template {string} Id
 * @param {Id} id
 * @returns {ElementById<Id>}
 */
export const $ = (id) =>
  /** @type {ElementById<Id>} */ (/** @type {unknown} */ (document.getElementById(id)));

/**
 * A new element with these properties (`style` as CSS text) and children.
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Partial<Omit<HTMLElementTagNameMap[Tag], "style">> & { style?: string }} [props]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[Tag]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/**
 * A key for display: { text, hex } where hex tells that text is hex (not printable UTF-8).
 * @param {Uint8Array} bytes
 * @param {string} mode "utf8" to show printable keys as text
 */
export function keyText(bytes, mode) {
  const text = mode === "utf8" ? printableText(bytes) : null;
  if (text !== null) return { text: text === "" ? "(empty)" : text, hex: text === "" };
  return { text: bytes.length === 0 ? "(empty)" : toHex(bytes), hex: true };
}

// A block handle as the viewer shows it; worded in sstfilter/tools (format.js), as the CLI's is.
export { handleShort as handleText } from "../dist/esm/tools/format.js";

/** @typedef {[term: string, value: string, title?: string]} FactRow one line of a facts list */

/**
 * @param {HTMLElement} dl
 * @param {FactRow[]} rows
 */
export function facts(dl, rows) {
  dl.replaceChildren(
    ...rows.flatMap(([term, value, title]) => [
      el("dt", { textContent: term }),
      el("dd", { textContent: value, title: title ?? "" }),
    ]),
  );
}

/**
 * Scrolls to the card `id` and flashes it.
 * @param {string} id
 */
export function reveal(id) {
  const card = $(id);
  card.hidden = false;
  card.scrollIntoView({ block: "start" });
  card.classList.remove("flash");
  void card.offsetWidth; // restarts the animation
  card.classList.add("flash");
  card.addEventListener("animationend", () => card.classList.remove("flash"), { once: true });
}
