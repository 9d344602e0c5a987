// Values in blob files (docs/FORMATS.md 6.7): a Get whose deciding entry is a blob index reads the
// value from the blob file the index names, as Version::GetBlob and BlobFileReader::GetBlob do with
// verify_checksums (rocksdb db/version_set.cc, db/blob/blob_file_reader.cc): the file must be live
// in the column family, the index a plain one (TTL and inlined indexes belong to stacked BlobDB),
// and the record's CRCs, key and sizes agree before the blob is decompressed (in the core:
// cpp/db/blob_file.cc ReadBlobValue). Only the file's header and the one record are read.
import type { WasmHeap } from "../core/heap.js";
import type { ColumnFamily, DatabaseSource } from "./db-types.js";
import { inFile, SstFilterError } from "../core/errors.js";
import { decodeBlobIndex, decodeWideColumns, type WideColumn } from "./values.js";
import { blobFileName } from "./db-file-names.js";

/** The header and the record's bytes of a file, by ranged reads where the source has them. */
async function readParts(
  headerSize: number,
  source: DatabaseSource,
  name: string,
  recordOffset: number,
  recordSize: number,
): Promise<{ size: number; header: Uint8Array; record: Uint8Array }> {
  if (source.open === undefined) {
    const whole = await source.read(name);
    return {
      size: whole.length,
      header: whole.subarray(0, headerSize),
      record: whole.subarray(recordOffset, recordOffset + recordSize),
    };
  }
  const opened = await source.open(name);
  try {
    const size = opened.source.size;
    const header = await opened.source.read(0, Math.min(headerSize, size));
    // An index pointing past the end is the core's to report ("invalid blob offset"): read nothing.
    const inFileRange = recordOffset >= 0 && recordOffset + recordSize <= size;
    const record = inFileRange ? await opened.source.read(recordOffset, recordSize) : new Uint8Array(0);
    return { size, header, record };
  } finally {
    opened.close();
  }
}

/** @internal The value `index` (a blob index, the entry of `key`) names, and its blob file's name. */
export async function readBlobValue(
  heap: WasmHeap,
  source: DatabaseSource,
  family: ColumnFamily,
  key: Uint8Array,
  index: Uint8Array,
): Promise<{ value: Uint8Array; file: string }> {
  const blob = decodeBlobIndex(heap, index);
  if (blob.type !== "blob") {
    throw new SstFilterError(
      "CORRUPT",
      `get: the key's blob index is of type ${blob.type}, which only stacked BlobDB writes (Version::GetBlob refuses it)`,
    );
  }
  const number = blob.fileNumber!;
  const name = blobFileName(number);
  if (!family.blobFiles.some((b) => b.number === number)) {
    throw new SstFilterError(
      "CORRUPT",
      `get: the key's blob index names blob file ${number}, which column family ${family.name} does not hold`,
    );
  }
  if (!source.names.includes(name)) {
    throw new SstFilterError(
      "TRUNCATED",
      "the MANIFEST lists this blob file, but the file is missing",
      0,
      name,
    );
  }
  const offset = blob.offset!;
  const size = blob.size!;
  // The record is its header, the key, then the value the index points at (docs/FORMATS.md 6.7).
  const { blobFileHeader, blobRecordHeader } = heap.constants.formatSizes;
  const before = BigInt(blobRecordHeader + key.length);
  // Offsets past 2^53 cannot be read; the core refuses them as invalid before any read matters.
  const recordOffset = offset >= before && offset < 1n << 52n ? Number(offset - before) : -1;
  const recordSize = size < 1n << 32n ? blobRecordHeader + key.length + Number(size) : 0;
  let parts: { size: number; header: Uint8Array; record: Uint8Array };
  try {
    parts = await readParts(blobFileHeader, source, name, recordOffset, recordSize);
  } catch (error) {
    throw inFile(error, name);
  }
  const input = new Uint8Array(parts.header.length + parts.record.length + key.length);
  input.set(parts.header, 0);
  input.set(parts.record, parts.header.length);
  input.set(key, parts.header.length + parts.record.length);
  const value = heap.module.readBlobValue(
    heap.put(input),
    parts.header.length,
    parts.record.length,
    key.length,
    BigInt(parts.size),
    offset,
    size,
    blob.compressionType ?? 0,
    family.id,
  );
  if (value === null) throw heap.lastError(name);
  return { value, file: name };
}

/**
 * @internal The value RocksDB's iterator reads for a key's newest version (`type`, `value` as
 * stored): a blob index's value read from its blob file, a wide-column entity's default column
 * (empty when it has none; read from its blob file when kept there: entity version 2), any other
 * value as it is (rocksdb db/db_iter.cc SetValueAndColumnsFromBlob, SetValueAndColumnsFromEntity).
 */
export async function iteratorValue(
  heap: WasmHeap,
  source: DatabaseSource,
  family: ColumnFamily,
  key: Uint8Array,
  type: string,
  value: Uint8Array,
): Promise<Uint8Array> {
  if (type === "blob-index") return (await readBlobValue(heap, source, family, key, value)).value;
  if (type !== "wide-column-entity") return value;
  const first = decodeWideColumns(heap, value)[0];
  if (first === undefined || first.name.length > 0) return new Uint8Array(0);
  if (first.blobIndex === undefined) return first.value;
  return (await readBlobValue(heap, source, family, key, first.value)).value;
}

/**
 * @internal What GetEntity answers for `entity` (a wide-column entity, the entry of `key`): its
 * columns, each kept in a blob file read from it (rocksdb db/wide/wide_columns_helper.h, the blob
 * columns resolved as Version::Get resolves them). `defaultValue`: the default column's value,
 * which the Get read already (from its blob file, where it is kept there).
 */
export async function entityColumns(
  heap: WasmHeap,
  source: DatabaseSource,
  family: ColumnFamily,
  key: Uint8Array,
  entity: Uint8Array,
  defaultValue: Uint8Array,
): Promise<WideColumn[]> {
  const columns: WideColumn[] = [];
  for (const column of decodeWideColumns(heap, entity)) {
    const value =
      column.name.length === 0
        ? defaultValue
        : column.blobIndex === undefined
          ? column.value
          : (await readBlobValue(heap, source, family, key, column.value)).value;
    columns.push({ name: column.name, value });
  }
  return columns;
}
