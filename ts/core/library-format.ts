// Which library's formats a table, a log or a whole database follows. The bindings take it as
// this string and read anything but "leveldb" as RocksDB (wasm/db_marshal.h FormatNamed,
// wasm/table_writer_bindings.cc), so every format a caller gives is checked here first.
import { SstFilterError } from "./errors.js";

/** The library whose on-disk formats a file follows: LevelDB's or RocksDB's. */
export type LibraryFormat = "leveldb" | "rocksdb";

/** @internal `format` as given, when it is "leveldb" or "rocksdb"; else a BAD_OPTIONS error. */
export function checkLibraryFormat(format: unknown): LibraryFormat {
  if (format !== "leveldb" && format !== "rocksdb") {
    throw new SstFilterError("BAD_OPTIONS", `format must be "leveldb" or "rocksdb", got ${String(format)}`);
  }
  return format;
}
