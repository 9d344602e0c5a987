// Where a database's files come from: a dropped folder's Files in a browser, read whole or in
// ranges (Node reads directories through ts/platform/node-files.ts), and what any source gives
// before the MANIFEST is read: the library that wrote it, and its tables opened by name.
import type { WasmHeap } from "../core/heap.js";
import type { DatabaseFormat, DatabaseSource, OpenedFile } from "./db-types.js";
import { inFile, SstFilterError } from "../core/errors.js";
import { blobSource, memorySource } from "../core/byte-sources.js";
import { openTableFrom, type AsyncTable } from "./table.js";
import type { OpenTableOptions } from "./table-types.js";
import { IDENTITY_FILE, OPTIONS_FILE_PREFIX } from "./db-file-names.js";

/**
 * The DatabaseSource `method` reads: `files` itself when it is one, else a filesSource over the Files;
 * BAD_OPTIONS for anything else.
 */
export function databaseSourceOf(
  files: DatabaseSource | Iterable<Blob & { name: string }>,
  method: string,
): DatabaseSource {
  if (files === null || typeof files !== "object") {
    throw new SstFilterError("BAD_OPTIONS", `${method} takes a database's Files or a DatabaseSource`);
  }
  return "read" in files && "names" in files ? files : filesSource(files);
}

/** A DatabaseSource over browser Files (a dropped folder's files; only the base names count). */
export function filesSource(files: Iterable<Blob & { name: string }>): DatabaseSource {
  const byName = new Map<string, Blob>();
  for (const f of files) byName.set(f.name.slice(f.name.lastIndexOf("/") + 1), f);
  return {
    names: [...byName.keys()],
    async read(name) {
      const file = byName.get(name);
      if (file === undefined) throw new SstFilterError("BAD_OPTIONS", `no file named ${name}`);
      return new Uint8Array(await file.arrayBuffer());
    },
    async open(name) {
      const file = byName.get(name);
      if (file === undefined) throw new SstFilterError("BAD_OPTIONS", `no file named ${name}`);
      return { source: blobSource(file), close: () => undefined };
    },
  };
}

/** @internal Opens table `name` of `source` lazily (ranged reads where it has them); errors name it. */
export async function openSourceTable(
  heap: WasmHeap,
  source: DatabaseSource,
  name: string,
  options: OpenTableOptions = {},
): Promise<AsyncTable> {
  const opened: OpenedFile =
    source.open !== undefined
      ? await source.open(name)
      : { source: memorySource(await source.read(name)), close: () => undefined };
  try {
    return await openTableFrom(heap, opened.source, options, () => opened.close());
  } catch (error) {
    throw inFile(error, name);
  }
}

/** @internal File `name` of `source`, whole; errors name it. */
export async function readSourceFile(source: DatabaseSource, name: string): Promise<Uint8Array> {
  try {
    return await source.read(name);
  } catch (error) {
    throw inFile(error, name);
  }
}

/** The library that wrote the database, from the names of its files (OpenDatabaseOptions.format). */
export function detectDatabaseFormat(names: readonly string[]): DatabaseFormat {
  return names.some((n) => n === IDENTITY_FILE || n.startsWith(OPTIONS_FILE_PREFIX)) ? "rocksdb" : "leveldb";
}
