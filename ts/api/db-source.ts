// Where a database's files come from in a browser: a dropped folder's Files, read whole or in
// ranges (Node reads directories through ts/platform/node-files.ts).
import type { DatabaseSource } from "./db.js";
import { SstFilterError } from "./errors.js";
import { blobSource } from "./table.js";

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
