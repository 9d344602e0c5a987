// The command line's progress bar (sstfilter verify, sstfilter db verify).

/**
 * Draws a progress bar on stderr (a terminal only) once the work has run for half a second:
 * update(share done from 0 to 1, what the bar's right side says).
 */
export function progressBar(): {
  /** Redraws the bar: `share` done from 0 to 1, `detail` on its right. */
  update(share: number, detail: string): void;
  /** Erases the bar, if drawn. */
  clear(): void;
} {
  const started = Date.now();
  let drawn = false;
  return {
    update(share, detail) {
      if (!process.stderr.isTTY || Date.now() - started < 500) return;
      const width = 30;
      const filled = Math.round(share * width);
      process.stderr.write(
        `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${detail}`,
      );
      drawn = true;
    },
    clear() {
      if (drawn) process.stderr.write("\r\x1b[K");
    },
  };
}
