// The viewer in a real browser, for the viewer's tests: Debian's Chromium, headless, driven by
// playwright-core (whose own browser download cannot work here), on demo/serve.mjs started on a
// free port. Every request the page makes is recorded, so that a test can check that nothing came
// from outside the machine.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { chromium, type BrowserContext, type JSHandle, type Page } from "playwright-core";

export const ROOT = path.join(__dirname, "..", "..");
const CHROMIUM = "/usr/bin/chromium"; // Debian's package, installed by scripts/setup.sh

export interface Viewer {
  page: Page;
  context: BrowserContext;
  /** The URLs of every request the page made. */
  requests: string[];
  close(): Promise<void>;
}

function startServer(): { server: ChildProcess; url: Promise<string> } {
  const server = spawn(process.execPath, [path.join(ROOT, "demo", "serve.mjs"), "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = new Promise<string>((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`demo/serve.mjs exited with ${code}`)));
    server.stdout!.on("data", (chunk: Buffer) => {
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(chunk.toString())?.[0];
      if (found) resolve(found);
    });
  });
  return { server, url };
}

/** Serves the viewer and opens it in Chromium, with its worker's backend loaded. */
export async function openViewer(): Promise<Viewer> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh`);
  const { server, url } = startServer();
  const profile = mkdtempSync(path.join(tmpdir(), "sstfilter-chromium-"));
  let context: BrowserContext | undefined;
  const close = async (): Promise<void> => {
    await context?.close();
    server.kill();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    const requests: string[] = [];
    context.on("request", (request) => requests.push(request.url()));
    const page = await context.newPage();
    await page.goto(await url);
    await page.waitForFunction(() => document.getElementById("backend")!.textContent !== "loading…");
    return { page, context, requests, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Every request went to the local server (or was a blob: or data: URL). */
export function expectOnlyLocalRequests(requests: string[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const url of requests) expect(url).toMatch(/^(http:\/\/127\.0\.0\.1:\d+\/|blob:|data:)/);
}

/**
 * Drops the files of the folder `dir` (its LOCK left out, as a copy has none) on `selector`, as a
 * browser hands over dropped files; returns their names and what was dropped.
 */
export async function dropFolderFiles(
  page: Page,
  dir: string,
  selector: string,
): Promise<{ names: string[]; dataTransfer: JSHandle<DataTransfer> }> {
  const names = readdirSync(dir).filter((n) => n !== "LOCK");
  const files = names.map((name) => [name, readFileSync(path.join(dir, name)).toString("base64")]);
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const [name, base64] of list) {
      transfer.items.add(new File([Uint8Array.from(atob(base64!), (c) => c.charCodeAt(0))], name!));
    }
    return transfer;
  }, files);
  await page.dispatchEvent(selector, "drop", { dataTransfer });
  return { names, dataTransfer };
}
