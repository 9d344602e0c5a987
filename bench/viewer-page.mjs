// The viewer (demo/) served by demo/serve.mjs on a free port and opened in Debian's Chromium,
// headless, driven by playwright-core: the benches that time what a user does in the viewer.
import { spawn } from "node:child_process";

/**
 * Starts the server and a page on the viewer; `close` stops both.
 * @returns {Promise<{ page: import("playwright-core").Page, close: () => Promise<void> }>}
 */
export async function openViewerPage() {
  const { chromium } = await import("playwright-core");
  const server = spawn(process.execPath, ["demo/serve.mjs", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`demo/serve.mjs exited with ${code}`)));
    server.stdout.on("data", (chunk) => {
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(chunk.toString())?.[0];
      if (found) resolve(found);
    });
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const close = async () => {
    await browser.close();
    server.kill();
  };
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById("backend")?.textContent !== "loading…");
    return { page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
