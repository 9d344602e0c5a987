// @ts-check
// What the table view's cards share: the table shown, and the generation that drops answers about
// a table no longer shown; the status pill; how a table is named.
import { $ } from "../dom.mjs";
/** @import { FilterSummary } from "../../dist/esm/platform/browser.js" */
/** @import { OpResult } from "../worker.mjs" */

/** @typedef {OpResult<"open">} TableInfo */

/**
 * The table shown, and what Verify added to what opening it told.
 * @typedef {object} Opened
 * @property {File | string} file a File, or an http(s) URL (the page's ?url=)
 * @property {TableInfo} info
 * @property {FilterSummary | null} [summary] the filter summary with the key counts Verify found
 * @property {number} [verifiedKeys] the entries Verify counted
 */

/**
 * The table shown ({ file, info }; null: none), and a count that bumps with every file: answers
 * about an older file are dropped.
 * @type {{ opened: Opened | null, generation: number }}
 */
export const tableView = { opened: null, generation: 0 };

/**
 * The name a table is shown by: a File's, or the last segment of a URL's path (its host if none).
 * @param {File | string} file
 */
export function tableName(file) {
  if (typeof file !== "string") return file.name;
  const url = new URL(file);
  return decodeURIComponent(url.pathname.split("/").pop() ?? "") || url.host;
}

/**
 * Shows how the table stands (opening, open, verified, corrupt) in the status pill.
 * @param {string} text
 * @param {string} [kind]
 */
export function setStatus(text, kind = "") {
  const pill = $("status");
  pill.textContent = text;
  pill.className = `pill ${kind}`;
}
