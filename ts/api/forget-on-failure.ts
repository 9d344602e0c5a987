// What a Database keeps of what it read or built once (a file's contents, a replay, the MANIFEST's
// state in wasm memory) is the promise of it; a failure must not be kept, or every later call
// would get the same error although the next read might succeed.

/** `promise`, calling `forget` when it fails, so that the next call tries again rather than keeping the failure. */
export function forgetOnFailure<T>(promise: Promise<T>, forget: () => void): Promise<T> {
  return promise.catch((error: unknown) => {
    forget();
    throw error;
  });
}
