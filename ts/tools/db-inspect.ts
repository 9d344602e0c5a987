// `sstfilter db inspect`'s MANIFEST part: the live table files of each column family level by level,
// with their sizes, key ranges and sequence numbers, and RocksDB's blob files (the logs and OPTIONS:
// db-wal.ts).
import type { Database } from "../api/db.js";
import { byteSize, bytesJson, count, plural, printableText, toHex } from "./format.js";

/** A key for the text view: printable UTF-8 quoted, else hex. */
const keyText = (key: Uint8Array): string => {
  const text = printableText(key);
  return text !== null ? `'${text}'` : `0x${toHex(key)}`;
};

/** The database's MANIFEST state as JSON: 64-bit numbers as strings, keys as bytesJson. */
export function databaseJson(db: Database): Record<string, unknown> {
  const big = (n: bigint | null): string | null => (n === null ? null : n.toString());
  return {
    format: db.format,
    manifest: db.manifest,
    comparator: db.comparator,
    nextFileNumber: big(db.nextFileNumber),
    lastSequence: big(db.lastSequence),
    editCount: db.editCount,
    manifestEnd: db.manifestEnd,
    columnFamilies: db.columnFamilies.map((cf) => ({
      id: cf.id,
      name: cf.name,
      comparator: cf.comparator,
      logNumber: big(cf.logNumber),
      levels: cf.levels.map((l) => ({
        level: l.level,
        bytes: l.bytes,
        files: l.files.map((f) => ({
          number: big(f.number),
          name: f.name,
          size: f.size,
          smallestKey: bytesJson(f.smallestKey),
          largestKey: bytesJson(f.largestKey),
          smallestSeqno: big(f.smallestSeqno),
          largestSeqno: big(f.largestSeqno),
        })),
      })),
      blobFiles: cf.blobFiles.map((b) => ({
        number: big(b.number),
        totalBlobCount: big(b.totalBlobCount),
        totalBlobBytes: big(b.totalBlobBytes),
        garbageBlobCount: big(b.garbageBlobCount),
        garbageBlobBytes: big(b.garbageBlobBytes),
      })),
    })),
  };
}

/** The database's MANIFEST state as text: a line per column family, level and file. */
export function databaseText(dir: string, db: Database): string {
  const lines = [
    `${dir}: ${db.format} database, ${db.manifest} (${plural(db.editCount, "edit")}` +
      `${db.manifestEnd.kind === "torn" ? `, torn tail at byte ${count(db.manifestEnd.offset)}: ${db.manifestEnd.what}` : ""})`,
    `comparator ${db.comparator}, next file ${db.nextFileNumber}, last sequence ${count(db.lastSequence)}`,
  ];
  for (const cf of db.columnFamilies) {
    const files = cf.levels.reduce((n, l) => n + l.files.length, 0);
    const bytes = cf.levels.reduce((n, l) => n + l.bytes, 0);
    // LevelDB has one column family, which it does not name.
    const family = db.format === "leveldb" ? "tables" : `column family ${cf.name} (id ${cf.id})`;
    lines.push(
      `${family}: ${plural(files, "file")}, ${byteSize(bytes)}` +
        (cf.comparator !== db.comparator ? `, comparator ${cf.comparator}` : ""),
    );
    for (const l of cf.levels) {
      if (l.files.length === 0) continue;
      lines.push(`  level ${l.level}: ${plural(l.files.length, "file")}, ${byteSize(l.bytes)}`);
      for (const f of l.files) {
        const seqs = f.smallestSeqno === null ? "" : `  seq ${f.smallestSeqno}..${f.largestSeqno}`;
        lines.push(
          `    ${f.name}  ${count(f.size)} bytes  ${keyText(f.smallestKey)} .. ${keyText(f.largestKey)}${seqs}`,
        );
      }
    }
    for (const b of cf.blobFiles) {
      lines.push(
        `  blob file ${b.number}: ${count(b.totalBlobCount)} blobs, ${count(b.totalBlobBytes)} bytes, ` +
          `${count(b.garbageBlobCount)} garbage`,
      );
    }
  }
  return lines.join("\n") + "\n";
}
