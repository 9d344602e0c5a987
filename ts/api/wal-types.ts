// The write-ahead log records a Get reads as its memtable: the interface helper `wal` implements in
// ts/api/wal.ts (this file holds only its declarations until the two branches merge).
export type WalRecordKind =
  "put" | "delete" | "single-delete" | "merge" | "range-delete" | "blob-index" | "wide-columns";

export interface WalRecord {
  /** This record's own sequence (batch sequence + index in batch). */
  sequence: bigint;
  /** 0 = default. */
  columnFamily: number;
  kind: WalRecordKind;
  /** range-delete: begin key. */
  key: Uint8Array;
  /** range-delete: end key; delete/single-delete: empty. */
  value: Uint8Array;
}

export interface WalFile {
  /** "000012.log" */
  name: string;
  number: bigint;
  /** In file order (ascending sequence). */
  records: WalRecord[];
  end: { kind: "clean" | "torn" | "corrupt"; offset: number; what: string };
}
