// The error a promise rejected with, as a value: a test checks several things of one failed call
// (its class, code, file, wording) where `await expect(p).rejects` would check one and need the
// call again for the next.
/** The reason `promise` rejects with, or null when it resolves. */
export function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}
