/**
 * The largest checkpoint `ctx.checkpoint` takes, as UTF-8 JSON: 64 KiB (a store keeps it in the task's row).
 * @publicApi
 */
export const MAX_CHECKPOINT_BYTES = 64 * 1024;

/**
 * `value` as a later attempt reads it back (what JSON makes of it), or an Error saying why it cannot be a
 * checkpoint: JSON cannot hold it (a BigInt, a cycle, a function, `undefined`), or it is over `MAX_CHECKPOINT_BYTES`.
 */
export function checkpointValue(value: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new Error(`ctx.checkpoint takes a JSON value; this one cannot be written as JSON: ${(err as Error).message}`);
  }
  if (json === undefined) throw new Error(`ctx.checkpoint takes a JSON value; got ${typeof value}`);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_CHECKPOINT_BYTES) {
    throw new Error(
      `ctx.checkpoint takes at most ${MAX_CHECKPOINT_BYTES} bytes (64 KiB) of JSON; this value is ${bytes} bytes: ` +
        'keep the bulk elsewhere (a file, a table) and checkpoint where it is',
    );
  }
  return JSON.parse(json) as unknown;
}
