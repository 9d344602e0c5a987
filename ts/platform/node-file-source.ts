// A file of the local file system as a ByteSource for ranged reads (tables opened by path), apart
// from node-files.ts so that the verify worker opens files without loading the whole API.
import { open } from "node:fs/promises";

import type { OpenedFile } from "../api/db-types.js";
import type { ByteSource } from "../core/byte-sources.js";

/** A file opened for ranged reads; close() releases the handle. */
export async function openFileSource(path: string): Promise<OpenedFile> {
  const file = await open(path, "r");
  const close = (): void => {
    file.close().catch(() => undefined);
  };
  let size: number;
  try {
    size = (await file.stat()).size;
  } catch (error) {
    close();
    throw error;
  }
  const readInto = async (target: Uint8Array, offset: number): Promise<number> => {
    let done = 0;
    while (done < target.length) {
      const { bytesRead } = await file.read(target, done, target.length - done, offset + done);
      if (bytesRead === 0) break; // the file shrank: the core reports the short read
      done += bytesRead;
    }
    return done;
  };
  const source: ByteSource = {
    size,
    readInto,
    async read(offset, length) {
      const out = new Uint8Array(length);
      return out.subarray(0, await readInto(out, offset));
    },
  };
  return { source, close };
}
