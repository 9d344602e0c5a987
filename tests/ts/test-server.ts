// One local HTTP server per test file, for the suites that read over HTTP (http-source,
// http-database, the viewer's ?db=): it listens from the file's beforeAll to its afterAll, on a
// free port of 127.0.0.1, and answers as the suite's handler says.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The running server of a test file: its origin is known once its beforeAll has run. */
export interface TestServer {
  /** "http://127.0.0.1:<port>", without a trailing "/". */
  readonly origin: string;
}

/**
 * Registers beforeAll and afterAll hooks (in the describe block calling it, or the file's top
 * level) that start a server answering with `handle` and close it with its open connections
 * (keep-alive ones would hold Jest open).
 */
export function withTestServer(handle: RequestListener): TestServer {
  let server: Server | undefined;
  let origin: string | undefined;
  beforeAll(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });
  return {
    get origin(): string {
      if (origin === undefined)
        throw new Error("the test server starts in beforeAll: ask for its origin in a test");
      return origin;
    },
  };
}
