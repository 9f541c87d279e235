/**
 * The assertions the contract makes (what jest's and vitest's `expect` both offer).
 * @publicApi
 */
export interface ContractMatchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toBeUndefined(): void;
  toBeDefined(): void;
  toBeLessThanOrEqual(expected: number): void;
  toHaveLength(expected: number): void;
}

/**
 * The test framework's functions the contract runs on (free functions): jest's and vitest's fit as they are.
 * @publicApi
 */
export interface TestApi {
  describe(this: void, name: string, fn: () => void): void;
  it(this: void, name: string, fn: () => Promise<unknown> | void, timeout?: number): void;
  expect(this: void, actual: unknown): ContractMatchers;
  beforeAll(this: void, fn: () => Promise<unknown> | void, timeout?: number): void;
  afterAll(this: void, fn: () => Promise<unknown> | void, timeout?: number): void;
  beforeEach(this: void, fn: () => Promise<unknown> | void, timeout?: number): void;
}

const NAMES = ['describe', 'it', 'expect', 'beforeAll', 'afterAll', 'beforeEach'] as const;

/** The framework's global functions (jest; vitest with `globals: true`), or an error saying what to pass. */
export function globalTestApi(): TestApi {
  const g = globalThis as Record<string, unknown>;
  const missing = NAMES.filter((name) => typeof g[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(
      `taskStoreContract: no global ${missing.join(', ')}: pass { ${NAMES.join(', ')} } from your test framework` +
        " as its second argument (or turn the framework's globals on)",
    );
  }
  return Object.fromEntries(NAMES.map((name) => [name, g[name]])) as unknown as TestApi;
}
