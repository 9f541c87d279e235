/**
 * `fetch` whose JSON bodies are parsed with this realm's `JSON.parse`.
 *
 * Under jest's VM-module context, `Response.prototype.json()` is Node's own (outer-realm)
 * implementation, so the objects it returns have the outer `Object.prototype`. ext-tasks'
 * `isJsonValue` requires `Reflect.getPrototypeOf(o) === Object.prototype` (of the VM realm) and
 * rejects them ("Invalid result for tools/list: Expected a JSON value"). Outside jest the re-parse
 * is merely redundant, so the client always uses it: a user's e2e test needs no special setup.
 * @publicApi
 */
export const realmFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return res;
  const text = await res.text();
  const copy = new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  Object.defineProperty(copy, 'json', { value: async () => JSON.parse(text) as unknown });
  return copy;
};
