// Two-phase-commit WALs (the core's replay through ts/api/wal-recovery.ts, db.recoverLogs(), db.get / db.explainGet) on
// the db_twopc section: TransactionDBs of RocksDB 7.8.3 closed with transactions prepared and
// committed, rolled back and left prepared over keys in flushed tables, against what
// TransactionDB::Open answers for every probe, the transactions it recovers as prepared, and the
// memtable's versions of each key with their sequence numbers (a read-only open with allow_2pc).
import { readFileSync } from "node:fs";

import { SstFilterError, type Database, type NodeSstFilter, type WalFile, type WalRecovery } from "sstfilter";

// The CommonJS package holds only what the Node entry imports; the command's module is taken from source.
import { walAndOptions } from "../../ts/tools/db-wal";
import { replayLogs } from "../../ts/api/wal-recovery";
import type { WasmHeap } from "../../ts/core/heap";
import { logBytes, type HandBatch } from "./wal-bytes";
import { loadBackend } from "./backends";
import { getMismatches, parseKeys, sectionCases, type GetAnswer } from "./golden";
import { rejectionOf } from "./rejection";

interface LibraryRecord {
  kind: string;
  cf: number;
  key: string;
  value: string;
}
interface TransactionDbReading {
  /** Status::ToString() of the open. */
  open: string;
  answers?: GetAnswer[];
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
  read_only_2pc?: { open: string; answers: GetAnswer[]; memtable_versions: MemtableVersion[][] };
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
    expect(
      await getMismatches((k) => db.get(k), c.probes, c.transaction_db.answers!, "TransactionDB"),
    ).toEqual([]);
    expect(c.read_only_2pc!.answers).toEqual(c.transaction_db.answers);
  });

  test("the memtable holds the versions RocksDB's recovery gives, with their sequence numbers; explainGet's memtable steps carry them", async () => {
    const recovery = await db.recoverLogs();
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
      const explained = await db.explainGet(key);
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
          `probe ${i} ${text(key)}: explainGet's memtable step ${deciding?.entry} at ${deciding?.sequence}, RocksDB ${entry} at ${newest.sequence}`,
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

  test("a transaction prepared in a log its column family had flushed counts where it committed", async () => {
    // xid-span: prepared, a flush (the family's log number moves past that log), committed after.
    const live = (await db.writeAheadLogs()).map((l) => l.name);
    const read = (await db.recoverLogs()).logs.map((l) => l.name);
    const older = read.filter((name) => !live.includes(name));
    expect(older.length).toBeGreaterThanOrEqual(1);
    expect(db.minLogNumberToKeep).toBeLessThan(db.columnFamilies[0]!.logNumber);
    const span = c.probes.findIndex((k) => text(k) === "k050");
    expect(c.transaction_db.answers![span]!.value?.toLowerCase()).toBe(hex(Buffer.from("span")));
    expect(await db.get("k050")).toEqual(new Uint8Array(Buffer.from("span")));
  });

  test("the transactions left prepared are those TransactionDB::Open recovers, with their records", async () => {
    const { preparedUncommitted } = await db.recoverLogs();
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
      const error = await rejectionOf(db.get(c.probes[0]!));
      expect(error).toBeInstanceOf(SstFilterError);
      expect((error as SstFilterError).code).toBe("UNSUPPORTED");
      expect((error as SstFilterError).message).toContain("WRITE_PREPARED");
      expect((error as SstFilterError).file).toMatch(/\.log$/);
    } finally {
      db.dispose();
    }
  });
});

// Markers the corpus cannot make (RocksDB writes them well-formed): the replay's own rules.
describe("the core's replay on hand-made logs", () => {
  const bytes = (t: string): Uint8Array => new Uint8Array(Buffer.from(t, "latin1"));
  const put = (key: string, value: string, sequence: bigint) => ({
    sequence,
    columnFamily: 0,
    kind: "put" as const,
    key: bytes(key),
    value: bytes(value),
  });
  type Marker = WalFile["batches"][number]["markers"][number];
  const marker = (kind: Marker["kind"], position: number, data = "", timestamp = ""): Marker => ({
    kind,
    position,
    data: bytes(data),
    timestamp: bytes(timestamp),
  });
  /** One log of batches, each [header sequence, records, markers], as bytes. */
  type Batch = [bigint, ReturnType<typeof put>[], Marker[]];
  const log = (number: bigint, batches: Batch[]) => ({
    name: `${String(number).padStart(6, "0")}.log`,
    number,
    ...logBytes(
      sf.hash,
      batches.map(([sequence, records, markers]): HandBatch => ({ sequence, records, markers })),
    ),
  });
  // The core's replay of the logs, as a RocksDB database of one column family replays its own:
  // with 8-byte timestamps (`timestamped`) its comparator is the u64ts one.
  const recover = async (logs: ReturnType<typeof log>[], timestamped = false): Promise<WalRecovery> => {
    const heap = (sf as unknown as { heap: WasmHeap }).heap;
    const replay = await replayLogs(
      heap,
      logs.map((l) => ({
        name: l.name,
        number: l.number,
        async *pieces() {
          yield l.bytes;
        },
      })),
      {
        format: "rocksdb",
        mode: "kPointInTimeRecovery",
        columnFamilies: [
          {
            id: 0,
            name: "default",
            logNumber: 0n,
            comparator: timestamped
              ? {
                  name: heap.constants.comparatorNames.bytewise + heap.constants.comparatorNames.u64TsSuffix,
                  compare: null,
                }
              : { name: "", compare: null },
            hasTables: false,
          },
        ],
        listRecords: true,
      },
    );
    try {
      return replay.recovery();
    } finally {
      replay.dispose();
    }
  };
  const seen = async (logs: ReturnType<typeof log>[], timestamped = false) =>
    (await recover(logs, timestamped)).logs.map((l) =>
      l.records.map((r) => `${r.sequence} ${text(r.key)}=${text(r.value)}`),
    );

  test("a batch mixing plain records and a prepared section numbers only the plain ones; the commit numbers the rest", async () => {
    const logs = [
      log(7n, [
        [
          10n,
          [put("a", "1", 10n), put("b", "2", 11n), put("c", "3", 12n)],
          [marker("begin-prepare", 1), marker("end-prepare", 2, "x")],
        ],
        [11n, [put("d", "4", 11n)], []],
      ]),
      log(8n, [[12n, [], [marker("commit", 0, "x")]]]),
    ];
    expect(await seen(logs)).toEqual([["10 a=1", "11 c=3", "11 d=4"], ["12 b=2"]]);
  });

  test("a section its batch does not close is dropped; a commit of an unknown id does nothing", async () => {
    const logs = [
      log(7n, [
        [5n, [put("a", "1", 5n)], [marker("begin-prepare", 0)]],
        [5n, [], [marker("commit", 0, "nobody")]],
      ]),
    ];
    const r = await recover(logs);
    expect(r.logs[0]!.records).toEqual([]);
    expect(r.preparedUncommitted).toEqual([]);
  });

  test("commit with timestamp writes the timestamp over the keys' own", async () => {
    // A family of 8-byte timestamps (the u64ts comparator), committed with `timestamp`.
    const logs = (timestamp: string) => [
      log(7n, [
        [
          5n,
          [put(`k${"\0".repeat(8)}`, "v", 5n)],
          [marker("begin-prepare", 0), marker("end-prepare", 1, "x")],
        ],
        [5n, [], [marker("commit-with-timestamp", 0, "x", timestamp)]],
      ]),
    ];
    expect(await seen(logs("TTTTTTTS"), true)).toEqual([["5 kTTTTTTTS=v"]]);
    await expect(seen(logs("TS"), true)).rejects.toThrow(/2-byte timestamp/);
  });

  test("malformed sections and other policies' markers are typed errors naming the log and offset", async () => {
    const refusal = async (batches: Batch[]): Promise<unknown[] | null> => {
      try {
        await recover([log(9n, batches)]);
      } catch (e) {
        const error = e as SstFilterError;
        return [error.code, error.file, error.offset, error.message];
      }
      return null;
    };
    expect(await refusal([[1n, [], [marker("end-prepare", 0, "x")]]])).toEqual([
      "CORRUPT",
      "000009.log",
      0,
      expect.stringContaining("end-prepare without begin-prepare"),
    ]);
    expect((await refusal([[1n, [], [marker("begin-prepare", 0), marker("begin-prepare", 0)]]]))?.[0]).toBe(
      "CORRUPT",
    );
    const twice: Marker[] = [marker("begin-prepare", 0), marker("end-prepare", 0, "x")];
    const preparedTwice: Batch[] = [
      [1n, [], twice],
      [1n, [], twice],
    ];
    // The second batch's offset in the log.
    const second = log(9n, preparedTwice).offsets[1];
    expect(await refusal(preparedTwice)).toEqual([
      "UNSUPPORTED",
      "000009.log",
      second,
      expect.stringContaining("x prepared twice"),
    ]);
    expect(await refusal([[1n, [], [marker("begin-unprepare", 0)]]])).toEqual([
      "UNSUPPORTED",
      "000009.log",
      0,
      expect.stringContaining("WRITE_UNPREPARED"),
    ]);
  });
});
