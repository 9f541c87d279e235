/** Runs async sections one at a time, in call order. */
export class PromiseMutex {
  private tail: Promise<unknown> = Promise.resolve();
  /** Sections waiting or running. */
  private held = 0;
  private readonly release = (): void => void this.held--;

  /** Whether no section waits or runs: a synchronous step may run now without interleaving with one. */
  get idle(): boolean {
    return this.held === 0;
  }

  run<T>(section: () => Promise<T>): Promise<T> {
    this.held++;
    const result = this.tail.then(section);
    // The next section waits for this one to settle, whether it succeeded or not.
    this.tail = result.then(this.release, this.release);
    return result;
  }
}
