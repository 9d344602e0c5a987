// @ts-check
// The table view's Verify: every block checksum and every key against the filter, on one worker or
// several, with a progress bar; the key counts it finds complete the contents and filter cards.
import { blocksCheckedWhenOpening, count, verifyReportLines } from "../../dist/esm/tools/format.js";
import { $, el, keyText } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
import { renderEntries } from "./contents.mjs";
import { renderFilter } from "./filter.mjs";
import { setStatus, tableView } from "./table-state.mjs";
/** @import { VerifyReport } from "../../dist/esm/platform/browser.js" */
/** @import { ErrorLike } from "../error-banner.mjs" */

/** Wires the Verify and Cancel buttons. */
export function initVerify() {
  $("verify").addEventListener("click", async () => {
    if (!tableView.opened) return;
    const mine = tableView.generation;
    const bar = $("verify-bar");
    const progressText = $("verify-progress");
    /** @type {HTMLElement} */ (document.querySelector(".progress")).hidden = false;
    $("verify").disabled = true;
    $("verify-cancel").hidden = false;
    $("verify-result").hidden = true;
    bar.style.width = "0%";
    const started = performance.now();
    try {
      const jobs = $("verify-jobs").value;
      const { report, summary } = await call("verify", { jobs: jobs ? Number(jobs) : null }, (p) => {
        if (mine !== tableView.generation) return;
        const share = p.bytesTotal ? p.bytesDone / p.bytesTotal : 1;
        bar.style.width = `${(share * 100).toFixed(1)}%`;
        progressText.textContent = `${(share * 100).toFixed(0)}% · ${count(p.dataBlocks)} blocks · ${count(p.keys)} keys`;
      });
      if (mine !== tableView.generation) return;
      bar.style.width = "100%";
      progressText.textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
      renderVerify(report);
      if (report.error === null) {
        tableView.opened.verifiedKeys = report.keys;
        renderEntries();
      }
      if (summary) {
        tableView.opened.summary = summary;
        renderFilter(tableView.opened.info, summary);
      }
    } catch (error) {
      if (mine !== tableView.generation) return;
      const { code } = /** @type {ErrorLike} */ (error);
      progressText.textContent = code === "AbortError" ? "cancelled" : "";
      if (code !== "AbortError") showError(error, "verify");
    } finally {
      if (mine === tableView.generation) {
        $("verify").disabled = false;
        $("verify-cancel").hidden = true;
      }
    }
  });
  $("verify-cancel").addEventListener("click", () => call("cancelVerify"));
}

/**
 * The report in the command line's words (sstfilter/tools' verifyReportLines), under the verdict.
 * @param {VerifyReport} report
 */
function renderVerify(report) {
  const out = $("verify-result");
  const lines = verifyReportLines(report, {
    opened: tableView.opened ? blocksCheckedWhenOpening(tableView.opened.info) : [],
    keyText: (key) => keyText(key, "utf8").text,
  });
  out.replaceChildren(
    el("div", {
      className: `verdict ${report.ok ? "no" : "bad"}`,
      textContent: report.ok ? "✓ the file is sound" : "✗ the file is corrupt",
    }),
    ...lines.map((line) => el("div", { textContent: line })),
  );
  out.hidden = false;
  setStatus(report.ok ? "verified" : "corrupt", report.ok ? "ok" : "bad");
}

/** Hides the last verification's report and progress (another table is opening). */
export function clearVerify() {
  $("verify-result").hidden = true;
  $("verify-progress").textContent = "";
  /** @type {HTMLElement} */ (document.querySelector(".progress")).hidden = true;
}
