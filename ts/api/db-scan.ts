// A database's logical contents (Database.scan): every live user key's newest version across the
// live write-ahead logs (the memtable recovery rebuilds, ts/api/wal-recovery.ts) and every live
// table, deletions and keys under a newer range deletion dropped, in the database's key order.
import { SstFilterError } from "../core/errors.js";
import type { CompareFunction } from "./comparators.js";
import type { ColumnFamily, DatabaseFile } from "./db-types.js";
import type { EntryType } from "./entries.js";
import type { AsyncTable } from "./table.js";
import type { WalRecordKind } from "./wal.js";
import type { WalRecovery } from "./wal-recovery.js";

/** What a scan reads of its Database (db.ts, which calls scanDatabase and so is not imported here). */
export interface ScannedDatabase {
  readonly columnFamilies: readonly ColumnFamily[];
  /** The key order of the column family, as its comparator orders user keys. */
  compareFor(family: ColumnFamily): CompareFunction;
  /** The size of the user-defined timestamps of the column family's keys (0: none). */
  timestampSizeOf(family: ColumnFamily): number;
  /** The live table `file`, opened for reading. */
  openTable(file: DatabaseFile): Promise<AsyncTable>;
  /** The memtable the live logs replay into, as recovery builds it. */
  recoverLogs(): Promise<WalRecovery>;
}

/** One live key of a database and its newest version. */
export interface DatabaseRecord {
  /** The user key (without a user-defined timestamp). */
  key: Uint8Array;
  /** The newest version's value, as stored (a merge operand, a blob index, an entity as such). */
  value: Uint8Array;
  /** The newest version's sequence number. */
  sequence: bigint;
  /**
   * Its type: "put" for an ordinary value; "merge" (the newest operand: no merge operator runs),
   * "blob-index", "wide-column-entity" and the like are passed on as they are.
   */
  type: EntryType;
}

/** Which column family db.scan reads (the default one when absent). */
export interface DatabaseScanOptions {
  /** The column family to read (default "default"). */
  columnFamily?: string;
}

/** Entry types that end a key's life. */
const DELETIONS = new Set<string>(["delete", "single-delete", "delete-with-timestamp"]);

/** A WAL record's kind as the table entry type it becomes when flushed. */
const WAL_TYPES: Record<WalRecordKind, EntryType> = {
  put: "put",
  delete: "delete",
  "single-delete": "single-delete",
  merge: "merge",
  "range-delete": "range-delete",
  "blob-index": "blob-index",
  "wide-columns": "wide-column-entity",
  "timed-put": "put",
};

const hexDigits = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const idOf = (key: Uint8Array): string => {
  let out = "";
  for (const b of key) out += hexDigits[b]!;
  return out;
};

/**
 * @internal Database.scan: everything is collected first (a map of every distinct live user key to
 * its newest version, plus the range deletions), then sorted with the column family's comparator
 * and yielded. Memory: every distinct user key with its newest value at once, about the size of
 * the database's live data; meant for databases of megabytes (Chrome's stores), not gigabytes.
 */
export async function* scanDatabase(
  db: ScannedDatabase,
  opts: DatabaseScanOptions = {},
): AsyncGenerator<DatabaseRecord, void, undefined> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "scan takes an object { columnFamily? }");
  }
  const name = opts.columnFamily ?? "default";
  const family = db.columnFamilies.find((cf) => cf.name === name);
  if (family === undefined) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `the database has no column family named ${JSON.stringify(name)}`,
    );
  }
  const compare = db.compareFor(family);
  // The logs' keys carry the family's user-defined timestamp; entries do not.
  const timestampSize = db.timestampSizeOf(family);
  const userKey = (key: Uint8Array): Uint8Array =>
    timestampSize > 0 ? key.subarray(0, Math.max(0, key.length - timestampSize)) : key;
  const newest = new Map<string, DatabaseRecord>();
  const ranges: { start: Uint8Array; end: Uint8Array; sequence: bigint }[] = [];
  const offer = (record: DatabaseRecord): void => {
    const id = idOf(record.key);
    const known = newest.get(id);
    if (known === undefined || known.sequence < record.sequence) newest.set(id, record);
  };

  for (const level of family.levels) {
    for (const file of level.files) {
      const table = await db.openTable(file);
      try {
        for await (const e of table.entries()) {
          if (e.type === "range-delete") continue; // rangeDeletions() below gives them
          offer({ key: e.key, value: e.value, sequence: e.seq ?? 0n, type: e.type ?? "put" });
        }
        for (const r of await table.rangeDeletions())
          ranges.push({ start: r.start, end: r.end, sequence: r.seq });
      } finally {
        table.dispose();
      }
    }
  }
  for (const log of (await db.recoverLogs()).logs) {
    for (const r of log.records) {
      if (r.columnFamily !== family.id) continue;
      if (r.kind === "range-delete") {
        ranges.push({ start: userKey(r.key), end: userKey(r.value), sequence: r.sequence });
        continue;
      }
      offer({ key: userKey(r.key), value: r.value, sequence: r.sequence, type: WAL_TYPES[r.kind] ?? r.kind });
    }
  }

  const live = [...newest.values()].filter(
    (r) =>
      !DELETIONS.has(r.type) &&
      !ranges.some(
        (d) => d.sequence > r.sequence && compare(d.start, r.key) <= 0 && compare(r.key, d.end) < 0,
      ),
  );
  newest.clear();
  live.sort((a, b) => compare(a.key, b.key));
  yield* live;
}
