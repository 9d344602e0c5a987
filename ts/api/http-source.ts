// A file on a web server or in object storage (presigned S3 / GCS URLs, a backup's tables) as a
// ByteSource: ranged GETs with the global fetch (Node 20, browsers), so that reading a footer does
// not download the file (issue 32). Requests are few, as the file-handle path's reads are:
// - the first asks for the file's tail with a suffix range (its Content-Range gives the size), as
//   long as the core's own first read (kTailPrefetchBytes, cpp/table/block_fetcher.h): the footer,
//   metaindex, properties and a small index arrive in one request, and the tail stays cached;
// - a range the I/O driver announces (ByteSource.expect, a large index or filter) is one request
//   whose body is read as the driver asks for its pieces, never held whole besides the core's copy;
// - sequential reads (a walk's read-ahead) share one request for a window that doubles while the
//   walk goes on; any other read asks for exactly its bytes.
// A server that ignores Range (200 with the whole file) is RANGE_NOT_SUPPORTED, not a download.
import type { ByteSource } from "../core/byte-sources.js";
import { SstFilterError } from "../core/errors.js";

/** The fetch an HTTP source uses: the global `fetch` unless one is given (tests, proxies). */
export type HttpFetch = (url: string, init: RequestInit) => Promise<Response>;

/** How httpSource (and openTableFrom given a URL) reaches the file. */
export interface HttpSourceOptions {
  /** Headers sent with every request (an `Authorization` of your own, say); `Range` is ours. */
  headers?: Record<string, string>;
  /**
   * How many times a request is repeated after a network error, a 5xx or a 429 answer, waiting
   * 100 ms, then twice as long each time (at most 2 s). Default 3; 0: never.
   */
  retries?: number;
  /** Default: the global `fetch`. */
  fetch?: HttpFetch;
}

/** What an HTTP source has asked the server for so far. */
export interface HttpSourceStats {
  /** Requests sent, repeated ones included. */
  requests: number;
  /** Body bytes received. */
  bytes: number;
}

/** A ByteSource reading a URL with ranged requests; close() ends a response still being read. */
export interface HttpSource extends ByteSource {
  /** The URL read, as the URL parser normalizes it. */
  readonly url: string;
  readonly stats: HttpSourceStats;
  /** Ends a response still being read (a walk left early); later reads ask again. */
  close(): void;
}

// The first request's length: the core's first read of a table (kTailPrefetchBytes).
const TAIL_BYTES = 512 << 10;
// A walk's first shared request, and the largest its doubling reaches: a 2 GB walk takes about 40.
const FIRST_WINDOW = 4 << 20;
const LARGEST_WINDOW = 64 << 20;
const FIRST_RETRY_DELAY_MS = 100;
const LONGEST_RETRY_DELAY_MS = 2000;
const DEFAULT_RETRIES = 3;

/** The statuses a ranged read takes; the tail's also an empty file's 416 (no byte to send). */
const RANGE_ANSWERS: ReadonlySet<number> = new Set([206]);
const TAIL_ANSWERS: ReadonlySet<number> = new Set([206, 416]);
/** A probe's: the file's first byte, an empty file, or no such file (HttpByteSource.exists). */
const PROBE_ANSWERS: ReadonlySet<number> = new Set([206, 416, 404, 410, 403]);

/** The answers worth asking again for: the server is overloaded or failed for the moment. */
const retryable = (status: number): boolean => status >= 500 || status === 429;

/** A ranged response whose body is being read: the file's bytes [pos, end) are still to come. */
interface OpenBody {
  pos: number;
  end: number;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Bytes received and not yet asked for. */
  rest: Uint8Array;
}

/** A Content-Range header's first byte and the file's size ("bytes 0-99/1000", "bytes * /0"). */
function contentRange(header: string | null): { first: number; size: number } | null {
  const match = /^bytes (?:(\d+)-\d+|\*)\/(\d+)$/.exec(header?.trim() ?? "");
  if (match === null) return null;
  return { first: match[1] === undefined ? 0 : Number(match[1]), size: Number(match[2]) };
}

/** Why a request failed, from what fetch threw (Node's "fetch failed" hides the cause). */
function networkFailure(error: unknown): string {
  const e = error as { message?: unknown; cause?: { message?: unknown } } | null;
  const cause = e?.cause?.message;
  return typeof cause === "string" ? `${String(e?.message)} (${cause})` : String(e?.message ?? error);
}

class HttpByteSource implements HttpSource {
  readonly stats: HttpSourceStats = { requests: 0, bytes: 0 };
  size = 0;
  /** The last `tail.length` bytes of the file. */
  #tail = new Uint8Array(0);
  #body: OpenBody | null = null;
  /** The range the driver announced last (expect), read in one request. */
  #expected = { start: 0, end: 0 };
  /** Where the last read ended, and the window of the walk's next shared request. */
  #lastEnd = -1;
  #window = FIRST_WINDOW;
  /** Reads of the body run one after the other. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly retries: number,
    private readonly fetch: HttpFetch,
  ) {}

  /** Asks for the file's tail: the size and the footer's neighbourhood, kept. */
  async fetchTail(): Promise<void> {
    await this.#attempt(`-${TAIL_BYTES}`, 0, TAIL_ANSWERS, async (response) => {
      const range = contentRange(response.headers.get("content-range"));
      if (range === null) throw this.#error("HTTP_ERROR", `no usable Content-Range in its answer`, 0);
      const tail = new Uint8Array(await response.arrayBuffer());
      this.stats.bytes += tail.length;
      if (range.first + tail.length !== range.size) {
        throw this.#error("HTTP_ERROR", `the tail's body ends at byte ${range.first + tail.length}`, 0);
      }
      this.size = range.size;
      this.#tail = tail;
    });
  }

  expect(offset: number, length: number): void {
    this.#expected = { start: offset, end: offset + length };
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, Math.min(length, this.size - offset)));
    return out.subarray(0, await this.readInto(out, offset));
  }

  async readInto(target: Uint8Array, offset: number): Promise<number> {
    const end = Math.min(this.size, offset + target.length);
    if (end <= offset) return 0;
    const tailStart = this.size - this.#tail.length;
    const bodyEnd = Math.min(end, tailStart);
    if (offset < bodyEnd) {
      const part = target.subarray(0, bodyEnd - offset);
      const run = this.#queue.then(() => this.#fromBody(part, offset));
      this.#queue = run.catch(() => undefined);
      await run;
    }
    const from = Math.max(offset, tailStart);
    if (from < end) target.set(this.#tail.subarray(from - tailStart, end - tailStart), from - offset);
    this.#lastEnd = end;
    return end - offset;
  }

  close(): void {
    this.#body?.reader.cancel().catch(() => undefined);
    this.#body = null;
  }

  /** Fills `target` with the file's bytes at `offset` (before the tail) from a ranged response. */
  async #fromBody(target: Uint8Array, offset: number): Promise<void> {
    const want = offset + target.length;
    let body = this.#body;
    if (body === null || body.pos !== offset || body.end < want) {
      this.close();
      body = await this.#openBody(offset, this.#bodyEnd(offset, want));
    }
    let failures = 0;
    for (let done = 0; done < target.length;) {
      if (body.rest.length === 0) {
        let failure: string;
        try {
          const next = await body.reader.read();
          if (!next.done && body.pos + next.value.length <= body.end) {
            this.stats.bytes += next.value.length;
            body.rest = next.value;
            continue;
          }
          failure = next.done ? `its body ended at byte ${body.pos}` : `it sent more than asked`;
        } catch (error) {
          failure = networkFailure(error);
        }
        // A body cut short: the rest is asked for again, as a failed request would be.
        if (++failures > this.retries) {
          this.close();
          throw this.#error("HTTP_ERROR", `reading bytes ${body.pos}-${body.end - 1}: ${failure}`, body.pos);
        }
        this.close();
        await this.#pause(failures - 1);
        body = await this.#openBody(body.pos, body.end);
      }
      const n = Math.min(body.rest.length, target.length - done);
      target.set(body.rest.subarray(0, n), done);
      body.rest = body.rest.subarray(n);
      body.pos += n;
      done += n;
    }
  }

  /** Where the request for a read of [offset, want) ends: its announced range, a walk's window. */
  #bodyEnd(offset: number, want: number): number {
    const { start, end } = this.#expected;
    let wanted = want;
    if (offset >= start && want <= end) wanted = end;
    else if (offset === this.#lastEnd) {
      wanted = Math.max(want, offset + this.#window);
      this.#window = Math.min(LARGEST_WINDOW, this.#window * 2);
    } else this.#window = FIRST_WINDOW;
    return Math.min(wanted, this.size - this.#tail.length);
  }

  /** A response for the file's bytes [start, end), its body to be read. */
  async #openBody(start: number, end: number): Promise<OpenBody> {
    const body = await this.#attempt(`${start}-${end - 1}`, start, RANGE_ANSWERS, (response) => {
      const range = contentRange(response.headers.get("content-range"));
      if (range === null || range.first !== start || range.size !== this.size) {
        const got = response.headers.get("content-range");
        throw this.#error("HTTP_ERROR", `bytes ${start}-${end - 1} came as ${got} (of ${this.size})`, start);
      }
      const reader = response.body?.getReader();
      if (reader === undefined)
        throw this.#error("HTTP_ERROR", `no body for bytes ${start}-${end - 1}`, start);
      return Promise.resolve({ pos: start, end, reader, rest: new Uint8Array(0) });
    });
    this.#body = body;
    return body;
  }

  /**
   * Whether the file exists: its first byte asked for (a 206, or the 416 of an empty file), and
   * 404, 410 or 403 taken for "no such file" (S3 answers 403 for a missing key to a caller who may
   * not list the bucket). Not a HEAD request: a presigned URL is signed for GET only.
   */
  async exists(): Promise<boolean> {
    return this.#attempt("0-0", 0, PROBE_ANSWERS, (response) => {
      response.body?.cancel().catch(() => undefined);
      return Promise.resolve(response.status === 206 || response.status === 416);
    });
  }

  /**
   * Sends a request for `bytes=range` and hands its answer to `take` when `answers` has its status,
   * asking again after failures worth retrying.
   */
  async #attempt<T>(
    range: string,
    offset: number,
    answers: ReadonlySet<number>,
    take: (response: Response) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let failure: string;
      try {
        this.stats.requests++;
        const response = await this.fetch(this.url, {
          // identity: Node's fetch would otherwise accept a compressed body and decompress it.
          headers: { ...this.headers, range: `bytes=${range}`, "accept-encoding": "identity" },
        });
        if (answers.has(response.status)) return await take(response);
        response.body?.cancel().catch(() => undefined);
        if (response.status === 200) {
          const length = response.headers.get("content-length");
          throw this.#error(
            "RANGE_NOT_SUPPORTED",
            `asked for bytes=${range}, the server answered 200 with the whole file` +
              `${length === null ? "" : ` (${length} bytes)`}: it ignores Range requests`,
            offset,
          );
        }
        failure = `HTTP ${response.status} ${response.statusText}`.trim();
        if (!retryable(response.status)) {
          throw this.#error("HTTP_ERROR", `asked for bytes=${range}: ${failure}`, offset);
        }
      } catch (error) {
        if (error instanceof SstFilterError) throw error;
        failure = networkFailure(error);
      }
      if (attempt >= this.retries) {
        const tries = attempt + 1;
        throw this.#error(
          "HTTP_ERROR",
          `asked for bytes=${range}: ${failure} (${tries} attempt${tries === 1 ? "" : "s"})`,
          offset,
        );
      }
      await this.#pause(attempt);
    }
  }

  /** The wait before the retry after `attempt` failed ones. */
  #pause(attempt: number): Promise<void> {
    const ms = Math.min(LONGEST_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** attempt);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  #error(code: "HTTP_ERROR" | "RANGE_NOT_SUPPORTED", message: string, offset: number): SstFilterError {
    return new SstFilterError(code, message, offset, this.url);
  }
}

/** @internal The http(s) URL `url` names; BAD_OPTIONS for anything else. */
export function checkUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SstFilterError("BAD_OPTIONS", `not a URL: ${JSON.stringify(String(url))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new SstFilterError("BAD_OPTIONS", `an HTTP source takes an http(s) URL, got ${parsed.protocol}`);
  }
  return parsed.href;
}

/** A source of `url` that has sent nothing yet; BAD_OPTIONS for options it cannot use. */
function unsentSource(url: URL | string, opts: HttpSourceOptions): HttpByteSource {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "HTTP source options must be an object");
  }
  const { headers = {}, retries = DEFAULT_RETRIES, fetch = globalThis.fetch } = opts;
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new SstFilterError("BAD_OPTIONS", `retries must be a whole number >= 0, got ${retries}`);
  }
  if (typeof fetch !== "function") {
    throw new SstFilterError("BAD_OPTIONS", "fetch must be a function (this runtime has no global fetch)");
  }
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw new SstFilterError("BAD_OPTIONS", `header ${name} must be a string`);
    if (name.toLowerCase() === "range")
      throw new SstFilterError("BAD_OPTIONS", "the Range header is the source's own");
    own[name] = value;
  }
  // Called as a plain function: a browser's fetch called as another object's method throws
  // "Illegal invocation".
  const send: HttpFetch = (target, init) => fetch(target, init);
  return new HttpByteSource(checkUrl(url), own, retries, send);
}

/**
 * A ByteSource over the file at `url` (http or https), read with ranged GET requests; resolves once
 * the first request brought the file's size and tail. The server must honour `Range` (S3, GCS,
 * nginx, most static servers do); in browsers a server of another origin must allow the `Range`
 * request header and expose `Content-Range` (CORS). `stats` counts requests and bytes.
 */
export async function httpSource(url: URL | string, opts: HttpSourceOptions = {}): Promise<HttpSource> {
  const source = unsentSource(url, opts);
  await source.fetchTail();
  return source;
}

/**
 * @internal Whether there is a file at `url`, asked with one request for its first byte
 * (HttpByteSource.exists); RANGE_NOT_SUPPORTED and HTTP_ERROR as httpSource throws them.
 */
export function httpFileExists(url: URL | string, opts: HttpSourceOptions = {}): Promise<boolean> {
  return unsentSource(url, opts).exists();
}
