// A MANIFEST's live files and column families as the core reads them (wasm/db_bindings.cc), in the
// public shapes of db.ts: 64-bit numbers as bigints, file names with the extension the folder has.
import type { ColumnFamilyRaw, TableFileRaw } from "../core/core-module.js";
import type { ColumnFamily, DatabaseFile, DatabaseFormat } from "./db-types.js";

/** "000012" + the extension: LevelDB 1.23 writes .ldb and still reads the older .sst. */
function tableName(number: string, format: DatabaseFormat, present: Set<string>): string {
  const base = number.padStart(6, "0");
  if (format === "leveldb" && !present.has(`${base}.ldb`) && present.has(`${base}.sst`)) return `${base}.sst`;
  return `${base}.${format === "leveldb" ? "ldb" : "sst"}`;
}

function fileOf(f: TableFileRaw, format: DatabaseFormat, present: Set<string>): DatabaseFile {
  return {
    number: BigInt(f.number),
    name: tableName(f.number, format, present),
    pathId: f.pathId,
    size: Number(f.size),
    smallestKey: f.smallestKey,
    largestKey: f.largestKey,
    smallestInternalKey: f.smallestInternalKey,
    largestInternalKey: f.largestInternalKey,
    smallestSeqno: f.smallestSeqno === undefined ? null : BigInt(f.smallestSeqno),
    largestSeqno: f.largestSeqno === undefined ? null : BigInt(f.largestSeqno),
    markedForCompaction: f.markedForCompaction,
    oldestBlobFileNumber: BigInt(f.oldestBlobFileNumber),
    oldestAncesterTime: BigInt(f.oldestAncesterTime),
    fileCreationTime: BigInt(f.fileCreationTime),
    epochNumber: BigInt(f.epochNumber),
    fileChecksum: f.fileChecksum,
    fileChecksumFuncName: f.fileChecksumFuncName,
    temperature: f.temperature,
    uniqueId: f.uniqueId === undefined ? null : [BigInt(f.uniqueId[0]), BigInt(f.uniqueId[1])],
  };
}

export function columnFamilyOf(
  cf: ColumnFamilyRaw,
  format: DatabaseFormat,
  present: Set<string>,
): ColumnFamily {
  return {
    id: cf.id,
    name: cf.name,
    comparator: cf.comparator,
    logNumber: BigInt(cf.logNumber),
    levels: cf.levels.map((files, level) => {
      const out = files.map((f) => fileOf(f, format, present));
      return { level, files: out, bytes: out.reduce((n, f) => n + f.size, 0) };
    }),
    blobFiles: cf.blobFiles.map((b) => ({
      number: BigInt(b.number),
      totalBlobCount: BigInt(b.totalBlobCount),
      totalBlobBytes: BigInt(b.totalBlobBytes),
      garbageBlobCount: BigInt(b.garbageBlobCount),
      garbageBlobBytes: BigInt(b.garbageBlobBytes),
      checksumMethod: b.checksumMethod,
      checksumValue: b.checksumValue,
    })),
  };
}
