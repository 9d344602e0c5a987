// @ts-check
// The banner every failure shows in, with its code and offset; the page stays usable.
import { count, withoutOffset } from "../dist/esm/tools/format.js";
import { $, el } from "./dom.mjs";

/**
 * What showError reads of an error: an Error, an SstFilterError, the worker's PlainError.
 * @typedef {{ code?: unknown, message?: string, offset?: number | null }} ErrorLike
 */

/**
 * Shows `error` (whatever was thrown; null hides the banner), saying what failed in `context`.
 * @param {unknown} error
 * @param {string} [context]
 */
export function showError(error, context) {
  const banner = $("error");
  if (!error) {
    banner.hidden = true;
    return;
  }
  const e = /** @type {ErrorLike} */ (error);
  const where = e.offset !== null && e.offset !== undefined ? ` at byte ${count(e.offset)}` : "";
  banner.replaceChildren(
    el("strong", { textContent: `${e.code ?? "ERROR"}${where}` }),
    document.createTextNode(
      ` — ${context ? `${context}: ` : ""}${withoutOffset(String(e.message ?? error))}`,
    ),
  );
  // The usual cause: a table a bare TableBuilder wrote (user keys without tags), read as a database's.
  if (/internal-key tag/.test(String(e.message)) && !$("user-keys").checked) {
    banner.append(
      el("div", {
        className: "hint",
        textContent: "Tick “keys carry no sequence/type tag” below if a bare TableBuilder wrote this file.",
      }),
    );
  }
  banner.hidden = false;
}
