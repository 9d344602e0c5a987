// The names of a database's files, built and parsed as LevelDB's db/filename.cc and RocksDB's
// file/filename.cc do: "<number>.log" (a WAL), "<number>.ldb" or ".sst" (a table), "<number>.blob",
// "MANIFEST-<number>", "OPTIONS-<number>" (RocksDB), CURRENT and IDENTITY (RocksDB). Numbers are
// written with six digits at least (MakeFileName's "%06llu"). The core names table files itself
// when it reads a MANIFEST (wasm/db_bindings.cc TableName) and exports no name function, so the
// package's other names are made here, and only here.
import type { LibraryFormat } from "../core/library-format.js";

/** The file naming the MANIFEST in use ("MANIFEST-000005" and a newline). */
export const CURRENT_FILE = "CURRENT";

/** RocksDB's file holding the database's id; LevelDB writes none. */
export const IDENTITY_FILE = "IDENTITY";

/** The start of the names of RocksDB's options files ("OPTIONS-000007"); LevelDB writes none. */
export const OPTIONS_FILE_PREFIX = "OPTIONS-";

/** The kinds of a database's numbered files: what parseDatabaseFileName reads from a name. */
export type DatabaseFileNameKind = "wal" | "table" | "blob" | "manifest" | "options";

/** A numbered file's kind and number, read from its name. */
export interface DatabaseFileName {
  kind: DatabaseFileNameKind;
  number: bigint;
}

/** The name patterns of the numbered files, as ParseFileName takes them (digits only). */
const PATTERNS: readonly { kind: DatabaseFileNameKind; pattern: RegExp }[] = [
  { kind: "wal", pattern: /^(\d+)\.log$/ },
  // LevelDB 1.23 writes .ldb and still reads the older .sst (leveldb db/filename.cc SSTTableFileName).
  { kind: "table", pattern: /^(\d+)\.(?:ldb|sst)$/ },
  { kind: "blob", pattern: /^(\d+)\.blob$/ },
  { kind: "manifest", pattern: /^MANIFEST-(\d+)$/ },
  { kind: "options", pattern: new RegExp(`^${OPTIONS_FILE_PREFIX}(\\d+)$`) },
];

const MAX_FILE_NUMBER = (1n << 64n) - 1n;

/**
 * The kind and number of a database's numbered file ("000012.log": a WAL numbered 12); null for
 * other names, and for numbers past 2^64 - 1, which ParseFileName does not take for a file of the
 * database's (leveldb db/filename.cc, rocksdb file/filename.cc; ConsumeDecimalNumber in util/logging.cc).
 */
export function parseDatabaseFileName(name: string): DatabaseFileName | null {
  for (const { kind, pattern } of PATTERNS) {
    const digits = pattern.exec(name)?.[1];
    if (digits === undefined) continue;
    const number = BigInt(digits);
    return number > MAX_FILE_NUMBER ? null : { kind, number };
  }
  return null;
}

/** @internal The number of a WAL's name ("000012.log": 12); null for other names. */
export function walNumber(name: string): bigint | null {
  const parsed = parseDatabaseFileName(name);
  return parsed?.kind === "wal" ? parsed.number : null;
}

/** A file number as the names write it: six digits at least (MakeFileName's "%06llu"). */
const digits = (number: bigint): string => number.toString().padStart(6, "0");

/** @internal The blob file numbered `number`: "000012.blob" (RocksDB file/filename.cc BlobFileName). */
export function blobFileName(number: bigint): string {
  return `${digits(number)}.blob`;
}

/** @internal The WAL numbered `number`: "000012.log" (LogFileName in both libraries). */
export function walFileName(number: bigint): string {
  return `${digits(number)}.log`;
}

/** @internal RocksDB's options file numbered `number`: "OPTIONS-000012" (OptionsFileName). */
export function optionsFileName(number: bigint): string {
  return `${OPTIONS_FILE_PREFIX}${digits(number)}`;
}

/**
 * @internal The names the table numbered `number` may have, the one the core prefers first (as
 * wasm/db_bindings.cc TableName picks among those present): RocksDB's ".sst"; LevelDB's ".ldb",
 * then the ".sst" LevelDB before 1.14 wrote and 1.23 still reads.
 */
export function tableFileNames(number: bigint, format: LibraryFormat): string[] {
  return format === "leveldb"
    ? [`${digits(number)}.ldb`, `${digits(number)}.sst`]
    : [`${digits(number)}.sst`];
}
