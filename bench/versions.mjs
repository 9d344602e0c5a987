// The versions a bench report names (the tools, packages and modules it measured), read from the
// machine: "unknown" for one that is not there, so a report of minutes of measuring is still written.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The first line `command args` prints (a `--version`, say), trimmed, or "unknown". */
export function firstLineOf(command, args) {
  try {
    return execFileSync(command, args, { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .split("\n")[0]
      .trim();
  } catch {
    return "unknown";
  }
}

/** The version of Debian package `pkg` as dpkg knows it, or "unknown". */
export function debianVersion(pkg) {
  return firstLineOf("dpkg-query", ["-W", "-f=${Version}", pkg]);
}

/** The version of npm package `pkg` in node_modules/. */
export function npmVersion(pkg) {
  return JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, "utf8")).version;
}
