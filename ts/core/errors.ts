/** Error codes an {@link SstFilterError} can carry. */
export type SstFilterErrorCode =
  | "BAD_OPTIONS" // an option is missing, out of range or of the wrong type
  | "BAD_KEY" // a key is neither a string nor a Uint8Array, or a KeyBatch is malformed
  | "TRUNCATED" // the input ends before a structure it announces
  | "CORRUPT" // the input is structurally invalid
  | "CHECKSUM_MISMATCH" // a stored checksum disagrees with the bytes
  | "UNSUPPORTED" // valid input that uses a feature this version does not implement
  | "RESOURCE_LIMIT" // the input asks for more memory than sstfilter allows
  | "DISPOSED" // the object was used after dispose()
  | "WASM_LOAD" // the WebAssembly module could not be loaded
  | "HTTP_ERROR" // a ranged request failed (an error status, the network), after its retries
  | "RANGE_NOT_SUPPORTED"; // the server answered a ranged request with the whole file

/**
 * Every error sstfilter throws on purpose. `offset` is the byte offset in the input, when known;
 * `file` names the input among several (a database's files), when there are several, and the
 * URL of an HTTP source (httpSource).
 */
export class SstFilterError extends Error {
  readonly code: SstFilterErrorCode;
  readonly offset: number | undefined;
  readonly file: string | undefined;

  constructor(code: SstFilterErrorCode, message: string, offset?: number, file?: string) {
    const where = offset === undefined ? message : `${message} (at byte ${offset})`;
    super(file === undefined ? where : `${file}: ${where}`);
    this.name = "SstFilterError";
    this.code = code;
    this.offset = offset;
    this.file = file;
  }
}

/** @internal An error's message without the " (at byte N)" its constructor added. */
export function messageWithoutOffset(message: string, offset: number | undefined): string {
  const suffix = offset === undefined ? "" : ` (at byte ${offset})`;
  return message.endsWith(suffix) ? message.slice(0, message.length - suffix.length) : message;
}

/** @internal The same error naming `file`, for errors from one of a database's files. */
export function inFile(error: unknown, file: string): unknown {
  if (!(error instanceof SstFilterError) || error.file !== undefined) return error;
  return new SstFilterError(
    error.code,
    messageWithoutOffset(error.message, error.offset),
    error.offset,
    file,
  );
}
