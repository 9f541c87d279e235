/**
 * `run()` as a promise, a synchronous throw as a rejection: for functions whose hot-path twin returns a plain value
 * when it has nothing to wait for (`Promise.resolve` hands a native promise back as it is: nothing more is made).
 */
export function promised<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}
