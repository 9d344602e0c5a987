// verify's order check (TableCursor::SetOrderCheck): every entry against the one before it and
// each block's entries against the block's index separator. The separator is compared once per
// block, with the block's last entry, and the block decoded again only when that fails; these
// tests pin that the error still names the first entry a check of every entry would have.
import { verifyTable, type NodeSstFilter, type VerifyReport, type WriteOptions } from "sstfilter";

import { loadBackend } from "./backends";

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

// Uncompressed, unchecksummed, every key stored whole (restart interval 1): bytes can be edited in
// place and an entry found by its key, three header bytes (shared, unshared, value length) before.
const OPTIONS: WriteOptions = {
  format: "rocksdb",
  filter: "none",
  compression: "none",
  checksum: "none",
  restartInterval: 1,
  blockSize: 1024,
} as WriteOptions;
const ENTRY_HEADER = 3;

/** key00000 .. key00299, each with value "v". */
function table(): Uint8Array {
  const w = sf.createTableWriter(OPTIONS);
  for (let i = 0; i < 300; i++) w.put(`key${String(i).padStart(5, "0")}`, "v");
  return w.finish();
}

const ascii = (s: string): Buffer => Buffer.from(s, "latin1");

/** Replaces the occurrence of `from` at or after `start` (its first) with `to`, of the same length. */
function edit(bytes: Uint8Array, from: string, to: string, start = 0, last = false): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const at = last ? b.lastIndexOf(ascii(from)) : b.indexOf(ascii(from), start);
  expect(at).toBeGreaterThanOrEqual(start);
  ascii(to).copy(b, at);
  return at;
}

async function verified(bytes: Uint8Array): Promise<VerifyReport> {
  const t = sf.openTable(bytes);
  try {
    return await verifyTable(t);
  } finally {
    t.dispose();
  }
}

/** The first data block's last key: where its index separator starts (not shortened: see below). */
function firstBlockLastKey(bytes: Uint8Array): string {
  const t = sf.openTable(bytes);
  try {
    const [batch] = t.keyBatches();
    const [offset, size] = [batch!.blocks[0]!, batch!.blocks[1]!];
    const keys = [...t.keys()].map((k) => Buffer.from(k).toString("latin1"));
    // Keys of one length that differ in their last digits: "key00041" then "key00042" shortens to
    // nothing shorter (FindShortestSeparator), so the separator is the last key itself.
    const inBlock = keys.filter((k) => Buffer.from(bytes).indexOf(ascii(k)) < offset + size);
    return inBlock.at(-1)!;
  } finally {
    t.dispose();
  }
}

test("an intact table passes", async () => {
  const report = await verified(table());
  expect(report.error).toBeNull();
  expect(report.keys).toBe(300);
});

test("a separator below later keys of its block: the first entry beyond it is named", async () => {
  const bytes = table();
  const last = firstBlockLastKey(bytes);
  expect(last > "key00020").toBe(true);
  // The index is written after the data: the separator is the key's last occurrence.
  edit(bytes, last, "key00010", 0, true);
  const firstBeyond = Buffer.from(bytes).indexOf(ascii("key00011"));
  const report = await verified(bytes);
  expect(report.error).toMatchObject({
    code: "CORRUPT",
    offset: firstBeyond - ENTRY_HEADER,
  });
  expect(report.error!.message).toContain("sorts after its block's index separator");
});

test("keys out of order after a separator already passed: the separator's error, at the earlier entry", async () => {
  const bytes = table();
  const last = firstBlockLastKey(bytes);
  edit(bytes, last, "key00010", 0, true);
  // key00015 becomes key00001: before the entry before it, and after key00011, the first beyond.
  edit(bytes, "key00015", "key00001");
  const report = await verified(bytes);
  expect(report.error!.message).toContain("sorts after its block's index separator");
  expect(report.error!.offset).toBe(Buffer.from(bytes).indexOf(ascii("key00011")) - ENTRY_HEADER);
});

test("keys out of order within the separator: the entry that sorts before the one before it", async () => {
  const bytes = table();
  const at = edit(bytes, "key00015", "key00001");
  const report = await verified(bytes);
  expect(report.error).toMatchObject({ code: "CORRUPT", offset: at - ENTRY_HEADER });
  expect(report.error!.message).toContain("sorts before the entry before it");
});
