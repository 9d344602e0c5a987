// Display helpers shared by the command line (tools/cli.ts) and the SST viewer (demo/), published
// as the package's `sstfilter/tools` entry (package.json "exports"), which the viewer imports.

/**
 * 1234567 -> "1,234,567" (integers; toLocaleString would load the locale data first, a cost every
 * short command would pay).
 */
export const count = (n: number | bigint): string => {
  const digits = String(n);
  return /^-?\d+$/.test(digits) ? digits.replace(/\B(?=(\d{3})+$)/g, ",") : n.toLocaleString("en-US");
};

/** (3, "key") -> "3 keys"; (1, "key") -> "1 key". */
export const plural = (n: number, noun: string): string => `${count(n)} ${noun}${n === 1 ? "" : "s"}`;

/** A rate as a percentage, with two decimals, or in exponent form below 0.01%. */
export const percent = (rate: number): string =>
  rate === 0 ? "0%" : rate < 0.0001 ? `${(rate * 100).toExponential(1)}%` : `${(rate * 100).toFixed(2)}%`;

/** A size in B, KiB or MiB. */
export const byteSize = (n: number): string =>
  n < 1024
    ? `${count(n)} B`
    : n < 1 << 20
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / (1 << 20)).toFixed(1)} MiB`;

const HEX_DIGITS = "0123456789abcdef";

/** Lowercase hex, two digits per byte. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  return out;
}

/** Hex digits, with an optional 0x prefix and any whitespace, as bytes; null when not hex. */
export function parseHex(text: string): Uint8Array | null {
  const digits = text.replace(/^0x/i, "").replace(/\s+/g, "");
  if (digits.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(digits)) return null;
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) =>
    parseInt(digits.slice(2 * i, 2 * i + 2), 16),
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as text when they are UTF-8 without control or format characters, else null. */
export function printableText(bytes: Uint8Array): string | null {
  try {
    const text = utf8.decode(bytes);
    return /[\p{Cc}\p{Cf}]/u.test(text) ? null : text;
  } catch {
    return null; // not UTF-8
  }
}

/** An SstFilterError message without its trailing "(at byte N)", for views that show N apart. */
export const withoutOffset = (message: string): string => message.replace(/ \(at byte \d+\)$/, "");

/**
 * A table's key order in words (the CLI's inspect and explain, the viewer's format facts): the
 * comparator, and where the reader's knowledge of it comes from when it is not the file's own word.
 */
export function keyOrderText(order: {
  comparator: string;
  source: "recorded" | "supplied" | "separators" | "unknown";
  keysLookLike: string | null;
}): string {
  switch (order.source) {
    case "recorded":
      return order.comparator;
    case "supplied":
      return `${order.comparator} (supplied)`;
    case "separators":
      return `${order.comparator} (assumed: LevelDB tables record no comparator, and the index separators ascend bytewise)`;
    case "unknown":
      if (order.keysLookLike !== null) {
        return `unknown; the keys look like ${order.keysLookLike}'s: answers are conservative (supply the comparator ${order.keysLookLike} for exact ones)`;
      }
      return order.comparator === ""
        ? "not bytewise; comparator unknown: answers are conservative (supply the comparator)"
        : `${order.comparator}: not built in, answers are conservative (supply the comparator)`;
  }
}
