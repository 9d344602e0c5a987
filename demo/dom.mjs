// @ts-check
// What the viewer's modules share for building the page: elements, and keys as text.
import { printableText, toHex } from "../dist/esm/tools/format.js";

/**
 * A new element with these properties (`style` as CSS text) and children.
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Partial<Omit<HTMLElementTagNameMap[Tag], "style">> & { style?: string }} [props]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[Tag]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/**
 * A key for display: { text, hex } where hex tells that text is hex (not printable UTF-8).
 * @param {Uint8Array} bytes
 * @param {string} mode "utf8" to show printable keys as text
 */
export function keyText(bytes, mode) {
  const text = mode === "utf8" ? printableText(bytes) : null;
  if (text !== null) return { text: text === "" ? "(empty)" : text, hex: text === "" };
  return { text: bytes.length === 0 ? "(empty)" : toHex(bytes), hex: true };
}
