// Two-phase-commit WALs (ts/api/wal-recovery.ts, db.recoverMemtable(), db.get / db.explain) on
// the db_twopc section: TransactionDBs of RocksDB 7.8.3 closed with transactions prepared and
// committed, rolled back and left prepared over keys in flushed tables, against what
// TransactionDB::Open answers for every probe, the transactions it recovers as prepared, and the
// memtable's versions of each key with their sequence numbers (a read-only open with allow_2pc).
import { readFileSync } from "node:fs";

import { SstFilterError, type Database, type NodeSstFilter } from "sstfilter";

// The CommonJS package holds only what the Node entry imports; the command's module is taken from source.
import { walAndOptions } from "../../ts/tools/db-wal";
import { loadBackend } from "./backends";
import { parseKeys, sectionCases } from "./golden";

interface Answer {
  status: "ok" | "not-found";
  value?: string;
}
interface LibraryRecord {
  kind: string;
  cf: number;
  key: string;
  value: string;
}
interface TransactionDbReading {
  /** Status::ToString() of the open. */
  open: string;
  answers?: Answer[];
  prepared?: { name: string; records: LibraryRecord[] }[];
}
interface MemtableVersion {
  /** rocksdb ValueType */
  type: number;
  value: string;
  sequence: number;
}
interface TwoPcCase {
  id: string;
  dir: string;
  probes: { path: string; count: number };
  transaction_db: TransactionDbReading;
  read_only?: { open: string };
  read_only_2pc?: { open: string; answers: Answer[]; memtable_versions: MemtableVersion[][] };
  transaction_db_write_prepared?: TransactionDbReading;
}

const CASES = sectionCases<TwoPcCase>("db_twopc").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
}));
const COMMITTED = CASES.filter((c) => c.read_only_2pc !== undefined);
const WRITE_PREPARED = CASES.filter((c) => c.transaction_db_write_prepared !== undefined);

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const text = (b: Uint8Array): string => Buffer.from(b).toString("latin1");
/** rocksdb db/dbformat.h ValueType -> our record kinds. */
const KIND_OF_TYPE: Record<number, string> = { 0: "delete", 1: "put", 2: "merge", 7: "single-delete" };

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has a WRITE_COMMITTED case with open, committed and memtable-decided probes, and a WRITE_PREPARED one", () => {
  expect(COMMITTED.length).toBeGreaterThanOrEqual(1);
  expect(WRITE_PREPARED.length).toBeGreaterThanOrEqual(1);
  for (const c of COMMITTED) {
    expect(c.transaction_db.open).toBe("OK");
    expect(c.transaction_db.answers).toHaveLength(c.probes.length);
    expect(c.transaction_db.prepared!.length).toBeGreaterThanOrEqual(2);
    // What the memtable decides: committed transactions' records among them.
    const inMemtable = c.read_only_2pc!.memtable_versions.filter((v) => v.length > 0).length;
    expect(inMemtable).toBeGreaterThanOrEqual(12);
    expect(c.transaction_db.answers!.filter((a) => a.status === "not-found").length).toBeGreaterThan(5);
  }
});

describe.each(COMMITTED)("$name", (c) => {
  let db: Database;
  beforeAll(async () => {
    db = await sf.openDatabase(c.corpus.path(c.dir));
  });
  afterAll(() => db.dispose());

  test("db.get equals TransactionDB::Open's Get for every probe (and a read-only open with allow_2pc agrees)", async () => {
    const wrong: string[] = [];
    for (const [i, key] of c.probes.entries()) {
      const ours = await db.get(key);
      const theirs = c.transaction_db.answers![i]!;
      const expected = theirs.status === "ok" ? theirs.value!.toLowerCase() : null;
      const got = ours === null ? null : hex(ours);
      if (got !== expected) wrong.push(`probe ${i} ${text(key)}: ours ${got}, TransactionDB ${expected}`);
    }
    expect(wrong).toEqual([]);
    expect(c.read_only_2pc!.answers).toEqual(c.transaction_db.answers);
  });

  test("the memtable holds the versions RocksDB's recovery gives, with their sequence numbers; explain's memtable steps carry them", async () => {
    const recovery = await db.recoverMemtable();
    const family = db.columnFamilies.find((cf) => cf.id === 0)!;
    const wrong: string[] = [];
    let decidedByMemtable = 0;
    for (const [i, key] of c.probes.entries()) {
      const theirs = c.read_only_2pc!.memtable_versions[i]!.map(
        (v) => `${v.sequence} ${KIND_OF_TYPE[v.type] ?? v.type} ${v.value.toLowerCase()}`,
      );
      const ours = recovery.logs
        .filter((log) => log.number >= family.logNumber)
        .flatMap((log) => log.records)
        .filter((r) => r.columnFamily === 0 && hex(r.key) === hex(key))
        .sort((a, b) => (a.sequence > b.sequence ? -1 : 1))
        .map((r) => `${r.sequence} ${r.kind} ${hex(r.value)}`);
      if (ours.join() !== theirs.join())
        wrong.push(`probe ${i} ${text(key)}: ours [${ours.join(", ")}], RocksDB [${theirs.join(", ")}]`);
      const explained = await db.explain(key);
      const deciding = explained.steps.find((s) => s.where === "memtable" && s.entry !== "none");
      const newest = c.read_only_2pc!.memtable_versions[i]![0];
      if (newest === undefined) {
        if (deciding !== undefined) wrong.push(`probe ${i} ${text(key)}: a memtable step decided`);
        continue;
      }
      decidedByMemtable++;
      const entry = newest.type === 1 ? "value" : newest.type === 0 ? "deletion" : String(newest.type);
      if (deciding?.sequence !== BigInt(newest.sequence) || deciding.entry !== entry) {
        wrong.push(
          `probe ${i} ${text(key)}: explain's memtable step ${deciding?.entry} at ${deciding?.sequence}, RocksDB ${entry} at ${newest.sequence}`,
        );
      }
      if (explained.result.sequence !== BigInt(newest.sequence)) {
        wrong.push(
          `probe ${i} ${text(key)}: result at ${explained.result.sequence}, RocksDB ${newest.sequence}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    expect(decidedByMemtable).toBeGreaterThanOrEqual(12);
  });

  test("the transactions left prepared are those TransactionDB::Open recovers, with their records", async () => {
    const { preparedUncommitted } = await db.recoverMemtable();
    const ours = preparedUncommitted
      .map((t) => ({
        name: text(t.xid),
        records: t.records.map((r) => ({
          kind: r.kind,
          cf: r.columnFamily,
          key: hex(r.key),
          value: hex(r.value),
        })),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const theirs = c.transaction_db.prepared!.map((t) => ({
      name: t.name,
      records: t.records.map((r) => ({ ...r, key: r.key.toLowerCase(), value: r.value.toLowerCase() })),
    }));
    expect(ours).toEqual(theirs);
    // db inspect lists them.
    const part = await walAndOptions(db);
    expect((part.json.preparedUncommitted as { xid: string }[]).map((t) => t.xid).sort()).toEqual(
      theirs.map((t) => t.name),
    );
    for (const t of theirs) expect(part.text).toContain(`prepared, not committed: ${t.name}`);
  });

  test("a plain read-only open (no allow_2pc) cannot read these WALs", () => {
    // A release build refuses ("WAL contains prepared transactions. Open with
    // TransactionDB::Open()."); Debian's build keeps RocksDB's assertions and aborts first.
    expect(c.read_only!.open).toMatch(/prepared transactions|aborted by signal/);
  });
});

describe.each(WRITE_PREPARED)("$name", (c) => {
  test("WRITE_COMMITTED recovery refuses a WRITE_PREPARED WAL, and so does db.get (UNSUPPORTED, naming the policy)", async () => {
    expect(c.transaction_db.open).toMatch(/NotSupported|Not implemented/);
    expect(c.transaction_db_write_prepared!.open).toBe("OK");
    const db = await sf.openDatabase(c.corpus.path(c.dir));
    try {
      const error = await db.get(c.probes[0]!).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SstFilterError);
      expect((error as SstFilterError).code).toBe("UNSUPPORTED");
      expect((error as SstFilterError).message).toContain("WRITE_PREPARED");
      expect((error as SstFilterError).file).toMatch(/\.log$/);
    } finally {
      db.dispose();
    }
  });
});
