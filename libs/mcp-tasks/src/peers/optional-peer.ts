/**
 * Optional peer dependencies (pg, passport, TypeORM, OpenTelemetry, …) are imported only when the
 * feature that needs them is configured, so an app installs just what it uses.
 */

/** The package for a configured feature; a missing one fails startup naming what to install. */
export async function loadPeer<T>(name: string, feature: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (err) {
    if (isMissing(err, name))
      throw new Error(`McpTasksModule: ${feature} needs the package "${name}" — install it: npm install ${name}`);
    throw err;
  }
}

/** The package when the app has it installed, else `undefined` (for features that switch on by presence). */
export async function probePeer<T>(name: string): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch (err) {
    if (isMissing(err, name)) return undefined;
    throw err;
  }
}

/** Node's "not found" for this very package (not for something it imports in turn). */
function isMissing(err: unknown, name: string): boolean {
  const e = err as { code?: string; message?: string };
  const code = e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND';
  return code && typeof e.message === 'string' && (e.message.includes(`'${name}'`) || e.message.includes(`"${name}"`));
}

/**
 * What a package exports, seen through `import()`: a CommonJS package's `module.exports` (its
 * `default`; Node may not find every named export of a compiled CommonJS file), else the ES module's
 * own exports.
 */
export function cjsExports<T>(ns: unknown): T {
  const d = (ns as { default?: unknown }).default;
  return (d && (typeof d === 'object' || typeof d === 'function') ? d : ns) as T;
}
