// Two databases compared (`sf.diffDatabases(a, b)`, `sstfilter diff DIR DIR`; issue 32): the live
// table files per level the MANIFESTs list, and the logical contents, what a full scan of each
// returns (db.scan: newest versions, deletions and range deletions applied), merged in key order
// (ts/api/merged-diff.ts). Both scans stream: memory holds their memtables, not the databases.
// Every column family by default: each family both databases have compared so, by name (the names
// a MANIFEST's column family records give, db/version_edit.h kColumnFamilyAdd), and the names only
// one has reported.
import { SstFilterError } from "../core/errors.js";
import type { ColumnFamily } from "./db-types.js";
import type { Database } from "./db.js";
import type { DatabaseRecord } from "./db-scan.js";
import { diffMerged, type MergedDiff, type MergeProgress } from "./merged-diff.js";
import { bytesEqual, ignoredOf, maxReportedOf, type DiffIgnore } from "./table-diff.js";

/** What diffDatabases may be told to ignore: see {@link DiffDatabasesOptions.ignore}. */
export type DatabaseDiffIgnore = DiffIgnore | "files";

/** diffDatabases' options: what to ignore, how many differences to report, which column family. */
export interface DiffDatabasesOptions {
  /**
   * As DiffTablesOptions.ignore: "seq" leaves the records' sequence numbers out (two databases
   * written with the same contents in other batches); the "properties" forms are accepted and
   * change nothing (a database diff compares no table properties). And "files": the live files
   * are still compared and reported but do not count in `equal`, so that a database and a
   * compacted copy of it, other files with the same contents, are equal.
   */
  ignore?: DatabaseDiffIgnore[];
  /** How many files and records of each kind to report (all are counted). Default 10. */
  maxReported?: number;
  /**
   * The one column family compared, by name, in both databases. Default: every family, each one
   * both databases have compared, the others named (DatabaseDiff.columnFamilies).
   */
  columnFamily?: string;
  /** Called as the records are merged, every few thousand records and once when a family is done. */
  onProgress?: (progress: DatabaseDiffProgress) => void;
}

/** A database diff's progress: the column family being compared and its merge's counts so far. */
export interface DatabaseDiffProgress extends MergeProgress {
  columnFamily: string;
}

/** A live table file: its level, number, name and size, as the MANIFEST lists it. */
export interface LiveFile {
  level: number;
  number: bigint;
  name: string;
  size: number;
}

/** A live file both databases list at the same level with different sizes. */
export interface LiveFileChange {
  level: number;
  name: string;
  fields: "size"[];
  a: LiveFile;
  b: LiveFile;
}

/**
 * The live files per level: a file is the same in both when its level, number and size are (a
 * checkpoint links the very files, utilities/checkpoint/checkpoint_impl.cc); a file moved to
 * another level is only in A at the one and only in B at the other. Contents are not read: the
 * records say what the data is.
 */
export type LiveFilesDiff = MergedDiff<LiveFile, LiveFileChange>;

/** A key both databases hold whose newest version differs. */
export interface RecordChange {
  key: Uint8Array;
  /** What differs, among "value", "type" and "seq" (unless ignored). */
  fields: ("value" | "type" | "seq")[];
  a: DatabaseRecord;
  b: DatabaseRecord;
}

/** The logical contents merged in key order: keys only in A, only in B, changed. */
export type RecordsDiff = MergedDiff<DatabaseRecord, RecordChange>;

/** One column family both databases have, compared. */
export interface ColumnFamilyDiff {
  name: string;
  /** Both its live files (unless ignored) and its logical contents equal. */
  equal: boolean;
  files: LiveFilesDiff;
  records: RecordsDiff;
}

/** The column families, by name: those only one database has, and those compared. */
export interface ColumnFamiliesDiff {
  /** Names, in each database's MANIFEST order (empty when one family was asked for). */
  onlyInA: string[];
  onlyInB: string[];
  /** The families both have, in A's order: "default" first (or the one asked for, alone). */
  compared: ColumnFamilyDiff[];
}

/** What diffDatabases finds. */
export interface DatabaseDiff {
  /** Every family is in both databases, and each one's live files (unless ignored) and contents equal. */
  equal: boolean;
  /** The live files of the default column family (or of the one asked for). */
  files: LiveFilesDiff;
  /** The logical contents of the default column family (or of the one asked for). */
  records: RecordsDiff;
  columnFamilies: ColumnFamiliesDiff;
}

/** The column family `name` of `db`; BAD_OPTIONS when it has none. */
function familyOf(db: Database, name: string, which: "A" | "B"): ColumnFamily {
  const family = db.columnFamilies.find((cf) => cf.name === name);
  if (family === undefined) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `database ${which} has no column family named ${JSON.stringify(name)}`,
    );
  }
  return family;
}

/** A family's live files, by level then file number. */
function liveFiles(family: ColumnFamily): LiveFile[] {
  return family.levels
    .flatMap((l) => l.files.map((f) => ({ level: l.level, number: f.number, name: f.name, size: f.size })))
    .sort(byLevelAndNumber);
}

/** Live files' order: by level, then file number. */
function byLevelAndNumber(x: LiveFile, y: LiveFile): number {
  return x.level - y.level || (x.number < y.number ? -1 : x.number > y.number ? 1 : 0);
}

function diffFiles(a: ColumnFamily, b: ColumnFamily, maxReported: number): Promise<LiveFilesDiff> {
  return diffMerged<LiveFile, "size", LiveFileChange>(
    liveFiles(a),
    liveFiles(b),
    {
      compare: byLevelAndNumber,
      differences: (x, y) => (x.size === y.size ? [] : ["size"]),
      kept: (f) => f,
      change: (x, y, fields) => ({ level: x.level, name: x.name, fields, a: x, b: y }),
    },
    maxReported,
  );
}

/** @internal sf.diffDatabases: database `a` against database `b`, live files and logical contents. */
export async function diffDatabases(
  a: Database,
  b: Database,
  opts: DiffDatabasesOptions = {},
): Promise<DatabaseDiff> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      "diffDatabases options must be an object { ignore?, maxReported?, columnFamily?, onProgress? }",
    );
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== "function") {
    throw new SstFilterError("BAD_OPTIONS", "onProgress must be a function (progress) => void");
  }
  const maxReported = maxReportedOf(opts.maxReported);
  // "files" is the database diff's own; the table diff's checks take the rest.
  const filesIgnored = Array.isArray(opts.ignore) && opts.ignore.includes("files");
  const ignored = ignoredOf(
    Array.isArray(opts.ignore)
      ? opts.ignore.filter((item): item is DiffIgnore => item !== "files")
      : opts.ignore,
  );
  const rules: FamilyRules = {
    maxReported,
    seqIgnored: ignored.seq,
    filesIgnored,
    onProgress: opts.onProgress,
  };
  // The default family is in every database (RocksDB's DB::Open requires it, include/rocksdb/db.h
  // kDefaultColumnFamilyName; LevelDB's one family is it): its diff is the top-level files and
  // records, as when only it was compared.
  const shown = opts.columnFamily ?? "default";
  const main = await diffFamily(a, b, shown, rules);
  const namesA = a.columnFamilies.map((cf) => cf.name);
  const namesB = b.columnFamilies.map((cf) => cf.name);
  const columnFamilies: ColumnFamiliesDiff = { onlyInA: [], onlyInB: [], compared: [main] };
  if (opts.columnFamily === undefined) {
    columnFamilies.onlyInA = namesA.filter((n) => !namesB.includes(n));
    columnFamilies.onlyInB = namesB.filter((n) => !namesA.includes(n));
    for (const name of namesA) {
      if (name !== shown && namesB.includes(name)) {
        columnFamilies.compared.push(await diffFamily(a, b, name, rules));
      }
    }
  }
  const equal =
    columnFamilies.onlyInA.length + columnFamilies.onlyInB.length === 0 &&
    columnFamilies.compared.every((f) => f.equal);
  return { equal, files: main.files, records: main.records, columnFamilies };
}

/** How each family is compared: diffDatabases' options, checked. */
interface FamilyRules {
  maxReported: number;
  seqIgnored: boolean;
  filesIgnored: boolean;
  onProgress: DiffDatabasesOptions["onProgress"];
}

/** The column family `name` of both databases compared: its live files and its logical contents. */
async function diffFamily(
  a: Database,
  b: Database,
  name: string,
  rules: FamilyRules,
): Promise<ColumnFamilyDiff> {
  const familyA = familyOf(a, name, "A");
  const familyB = familyOf(b, name, "B");
  if (familyA.comparator !== familyB.comparator) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `the databases are in different key orders (${familyA.comparator} and ${familyB.comparator}): their contents cannot be merged`,
    );
  }
  const compare = a.compareFor(familyA);
  const files = await diffFiles(familyA, familyB, rules.maxReported);
  const onProgress = rules.onProgress;
  const records = await diffMerged<DatabaseRecord, RecordChange["fields"][number], RecordChange>(
    a.scan({ columnFamily: name }),
    b.scan({ columnFamily: name }),
    {
      compare: (x, y) => (bytesEqual(x.key, y.key) ? 0 : compare(x.key, y.key)),
      differences: (x, y) => {
        const fields: RecordChange["fields"] = [];
        if (!bytesEqual(x.value, y.value)) fields.push("value");
        if (x.type !== y.type) fields.push("type");
        if (!rules.seqIgnored && x.sequence !== y.sequence) fields.push("seq");
        return fields;
      },
      // The scan copies every record it yields: nothing to copy again.
      kept: (r) => r,
      change: (x, y, fields) => ({ key: x.key, fields, a: x, b: y }),
    },
    rules.maxReported,
    onProgress === undefined ? undefined : (p) => onProgress({ columnFamily: name, ...p }),
  );
  return { name, equal: (rules.filesIgnored || files.equal) && records.equal, files, records };
}
