#!/usr/bin/env node
// The `sstfilter` command: inspect, probe and verify LevelDB / RocksDB table files, build filters.
// This file dispatches: each command (its options, help and run) is a file of tools/commands/;
// here are the main help, parsing the command line, exit codes and reporting errors.
// Exit codes: 0 success (probe: every key may be present); 1 a negative finding (probe: some key is
// definitely absent; verify: the file is corrupt; get: the file holds nothing for the key); 2 usage
// error; 3 the input could not be read or decoded. `diff` alone follows diff(1): 0 equal, 1
// different, 2 on any trouble (tools/commands/diff.ts).
import { parseArgs } from "node:util";

import { init, SstFilterError } from "../platform/node.js";
import { buildCommand } from "./commands/build.js";
import { dbCommand } from "./commands/db.js";
import { diffCommand } from "./commands/diff.js";
import { filterAdviceCommand } from "./commands/filter-advice.js";
import { getCommand } from "./commands/get.js";
import { inspectCommand } from "./commands/inspect.js";
import { probeCommand } from "./commands/probe.js";
import { scanCommand } from "./commands/scan.js";
import { CliError, EXIT_INPUT, EXIT_USAGE, usage, type Command, type Parsed } from "./commands/shared.js";
import { verifyCommand } from "./commands/verify.js";
import { writeCommand } from "./commands/write.js";

// The order of the main help's list.
const COMMANDS: Record<string, Command> = {
  inspect: inspectCommand,
  probe: probeCommand,
  build: buildCommand,
  write: writeCommand,
  verify: verifyCommand,
  scan: scanCommand,
  get: getCommand,
  diff: diffCommand,
  db: dbCommand,
  "filter-advice": filterAdviceCommand,
};

// The width of the command names' column in the main help: the longest name and two spaces.
const NAME_WIDTH = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2;

const MAIN_HELP = `Usage: sstfilter <command> [options]

Reads LevelDB (.ldb) and RocksDB (.sst) table files and their filters, byte for byte as the
databases do (WebAssembly; no database needed).

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(NAME_WIDTH)}${c.summary}`)
  .join("\n")}

Run "sstfilter <command> --help" for a command's options.
Exit codes: 0 ok, 1 a key is definitely absent (probe), the file is corrupt (verify) or holds
nothing for the key (get), 2 usage error, 3 the input could not be read or decoded; diff, as
diff(1): 0 equal, 1 different, 2 on any trouble.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(MAIN_HELP + "\n");
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) throw usage(`unknown command ${JSON.stringify(name)} (see sstfilter --help)`);
  let parsed: Parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    }) as Parsed;
  } catch (error) {
    throw usage(`${name}: ${(error as Error).message}`);
  }
  if (parsed.values.help === true) {
    process.stdout.write(command.help + "\n");
    return 0;
  }
  return command.run(await init(), parsed);
}

// Output piped into a reader that stopped early (`sstfilter scan f | head`): done, quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

// Ends the process once what it wrote has been handed on (a write's callback runs after the writes
// before it), without waiting for the rest of the teardown: worker threads ending and the
// WebAssembly heap freed take 10-20 ms after a `verify --jobs` run.
function exitWhenWritten(code: number): void {
  process.exitCode = code;
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

/** The exit code of an error that ended the command, reported on standard error. */
function reportError(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(`sstfilter: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof SstFilterError) {
    // Not about an input file: loading the wasm module failed.
    process.stderr.write(`sstfilter: ${error.code}: ${error.message}\n`);
    return EXIT_INPUT;
  }
  process.stderr.write(
    `sstfilter: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT_INPUT;
}

main(process.argv.slice(2)).then(exitWhenWritten, (error: unknown) => exitWhenWritten(reportError(error)));
