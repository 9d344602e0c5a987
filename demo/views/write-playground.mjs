// @ts-check
// The Write playground: a table written from typed entries as RocksDB's SstFileWriter or LevelDB's
// TableBuilder would, its facts, a download, and a button that opens it in the table view.
import { count } from "../../dist/esm/tools/format.js";
import { $, facts } from "../dom.mjs";
import { showError } from "../error-banner.mjs";
import { call } from "../worker-calls.mjs";
/** @import { WriteOptions } from "../../dist/esm/platform/browser.js" */

/** @type {string | null} */
let writtenUrl = null;
/** @type {File | null} */
let written = null;

async function writeTable() {
  const lines = $("write-lines").value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const format = /** @type {WriteOptions["format"]} */ ($("write-format").value);
  const filter = /** @type {NonNullable<WriteOptions["filter"]>} */ ($("write-filter").value);
  const options = { format, filter, compression: $("write-compression").value };
  try {
    const result = await call("write", {
      lines,
      hex: $("write-hex").checked,
      sort: $("write-sort").checked,
      options,
    });
    showError(null);
    facts($("written-facts"), [
      ["entries", count(result.entries)],
      ["size", `${count(result.bytes.length)} bytes`],
      ["written as", format === "rocksdb" ? "RocksDB SstFileWriter" : "LevelDB TableBuilder"],
    ]);
    const name = format === "rocksdb" ? "written.sst" : "written.ldb";
    written = new File([/** @type {Uint8Array<ArrayBuffer>} */ (result.bytes)], name);
    if (writtenUrl) URL.revokeObjectURL(writtenUrl);
    writtenUrl = URL.createObjectURL(written);
    const link = $("write-download");
    link.href = writtenUrl;
    link.download = name;
    link.textContent = `Download ${name} (${count(result.bytes.length)} bytes)`;
    link.hidden = false;
    $("write-open").hidden = false;
  } catch (error) {
    showError(error, "write");
  }
}

/**
 * Wires the playground's controls; `openWritten` shows the table written in the table view.
 * @param {(file: File) => void} openWritten
 */
export function initWritePlayground(openWritten) {
  $("write").addEventListener("click", writeTable);
  // Each format's own filter: RocksDB's FastLocalBloom, LevelDB's Bloom filter block.
  $("write-format").addEventListener("change", () => {
    $("write-filter").value = $("write-format").value === "leveldb" ? "leveldb" : "rocksdb-bloom";
  });
  $("write-open").addEventListener("click", () => {
    if (written === null) return;
    // A LevelDB table from TableBuilder holds user keys.
    $("user-keys").checked = written.name.endsWith(".ldb");
    openWritten(written);
  });
}
