// @ts-check
// A folder's files, however the browser hands the folder over: dropped (a FileSystemEntry, in
// every browser), picked with showDirectoryPicker (Chromium), or through <input webkitdirectory>.
// Only the folder's own files count: a database keeps its files at the top (subfolders such as a
// WAL archive hold other copies under the same names).

/**
 * @typedef {object} Folder
 * @property {string} name
 * @property {File[]} files
 */

/**
 * The files of a dropped directory entry.
 * @param {FileSystemDirectoryEntry} dir
 * @returns {Promise<File[]>}
 */
async function entryFiles(dir) {
  const reader = dir.createReader();
  /** @type {FileSystemEntry[]} */
  const entries = [];
  // readEntries hands out a batch at a time (100 in Chromium), then an empty one.
  for (;;) {
    /** @type {FileSystemEntry[]} */
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    entries.push(...batch);
  }
  const files = /** @type {FileSystemFileEntry[]} */ (entries.filter((e) => e.isFile));
  return Promise.all(files.map((e) => new Promise((resolve, reject) => e.file(resolve, reject))));
}

/**
 * What a drop brings: a dropped folder (its name and files), or the dropped files (folder null).
 * Call it during the drop event: the items are gone once the handler returns.
 * @param {DataTransfer} data
 * @returns {{ folder: string | null, files: Promise<File[]> }}
 */
export function droppedFiles(data) {
  const dir = [...data.items]
    .map((item) => (item.kind === "file" ? item.webkitGetAsEntry() : null))
    .find((entry) => entry?.isDirectory);
  if (dir) return { folder: dir.name, files: entryFiles(/** @type {FileSystemDirectoryEntry} */ (dir)) };
  return { folder: null, files: Promise.resolve([...data.files]) };
}

/**
 * The parts of the File System Access API used here (TypeScript's DOM types lack the picker).
 * @typedef {{ kind: "file" | "directory", getFile(): Promise<File> }} Handle
 * @typedef {{ name: string, values(): AsyncIterable<Handle> }} DirectoryHandle
 * @typedef {{ showDirectoryPicker?: () => Promise<DirectoryHandle> }} PickerScope
 */
const pickerScope = /** @type {PickerScope} */ (/** @type {unknown} */ (window));

/** Whether this browser has showDirectoryPicker (else the page offers <input webkitdirectory>). */
export const canPickFolders = () => typeof pickerScope.showDirectoryPicker === "function";

/**
 * A folder the user picks with showDirectoryPicker (see canPickFolders); null if they cancel.
 * @returns {Promise<Folder | null>}
 */
export async function pickFolder() {
  let dir;
  try {
    dir = await /** @type {() => Promise<DirectoryHandle>} */ (pickerScope.showDirectoryPicker)();
  } catch (error) {
    if (/** @type {{ name?: string }} */ (error).name === "AbortError") return null;
    throw error;
  }
  /** @type {File[]} */
  const files = [];
  for await (const handle of dir.values()) if (handle.kind === "file") files.push(await handle.getFile());
  return { name: dir.name, files };
}

/**
 * The folder an <input webkitdirectory> was given: its name and own files.
 * @param {FileList} list
 * @returns {Folder}
 */
export function inputFolder(list) {
  const all = [...list];
  const files = all.filter((f) => f.webkitRelativePath.split("/").length === 2);
  return { name: all[0]?.webkitRelativePath.split("/")[0] ?? "", files };
}
