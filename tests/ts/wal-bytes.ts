// Hand-made write-ahead logs as bytes (docs/FORMATS.md 6.2, 6.4): write batches of the records and
// markers a test names, framed as log records, so that tests of cases the corpus cannot make (RocksDB
// writes its markers well-formed) go through the core's replay as a database's logs do. Batch
// layout: rocksdb db/write_batch.cc (8-byte sequence, 4-byte count, then tagged records);
// framing: rocksdb db/log_writer.cc (7-byte header: masked CRC-32C of type and payload, length,
// type FULL), every batch a record within the first 32 KiB block.
import type { Hashes, WalFile } from "sstfilter";

type WalRecord = WalFile["records"][number];
type Marker = WalFile["batches"][number]["markers"][number];

export interface HandBatch {
  /** The sequence number in the batch's header. */
  sequence: bigint;
  records: WalRecord[];
  /** Each before the record at its position (after the last at records.length). */
  markers: Marker[];
}

// Tags of rocksdb db/dbformat.h ValueType as write batches use them: [default family, with id].
const RECORD_TAGS: Partial<Record<WalRecord["kind"], [number, number]>> = {
  put: [0x1, 0x5],
  delete: [0x0, 0x4],
  merge: [0x2, 0x6],
  "single-delete": [0x7, 0x8],
  "range-delete": [0xf, 0xe],
};
const MARKER_TAGS: Record<Marker["kind"], number> = {
  "begin-prepare": 0x9,
  "end-prepare": 0xa,
  commit: 0xb,
  rollback: 0xc,
  noop: 0xd,
  "begin-persisted-prepare": 0x12,
  "begin-unprepare": 0x13,
  "commit-with-timestamp": 0x15,
  "log-data": 0x3,
};

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
}

function slice(bytes: Uint8Array, out: number[]): void {
  varint(bytes.length, out);
  out.push(...bytes);
}

function batchBytes(batch: HandBatch): Uint8Array {
  const out: number[] = [];
  const header = Buffer.alloc(12);
  header.writeBigUInt64LE(batch.sequence, 0);
  header.writeUInt32LE(batch.records.length, 8);
  out.push(...header);
  for (let i = 0; i <= batch.records.length; i++) {
    for (const m of batch.markers.filter((m) => m.position === i)) {
      out.push(MARKER_TAGS[m.kind]);
      if (m.kind === "commit-with-timestamp") slice(m.timestamp, out);
      if (m.kind !== "begin-prepare" && m.kind !== "noop" && !m.kind.startsWith("begin-")) {
        slice(m.data, out);
      }
    }
    const r = batch.records[i];
    if (r === undefined) continue;
    const tags = RECORD_TAGS[r.kind];
    if (tags === undefined) throw new Error(`wal-bytes: no tag for a ${r.kind} record`);
    if (r.columnFamily === 0) {
      out.push(tags[0]);
    } else {
      out.push(tags[1]);
      varint(r.columnFamily, out);
    }
    slice(r.key, out);
    if (r.kind !== "delete" && r.kind !== "single-delete") slice(r.value, out);
  }
  return new Uint8Array(out);
}

/** The log holding `batches`, and the file offset of each batch's record. */
export function logBytes(hash: Hashes, batches: HandBatch[]): { bytes: Uint8Array; offsets: number[] } {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const batch of batches) {
    const payload = batchBytes(batch);
    if (size + 7 + payload.length > 32768) throw new Error("wal-bytes: the log outgrows one block");
    const typed = new Uint8Array(1 + payload.length);
    typed[0] = 1; // kFullType
    typed.set(payload, 1);
    const header = Buffer.alloc(7);
    header.writeUInt32LE(hash.crc32cMask(hash.crc32c(typed)), 0);
    header.writeUInt16LE(payload.length, 4);
    header[6] = 1;
    offsets.push(size);
    parts.push(header, payload);
    size += 7 + payload.length;
  }
  return { bytes: new Uint8Array(Buffer.concat(parts)), offsets };
}
