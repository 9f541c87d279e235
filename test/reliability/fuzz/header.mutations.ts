import fc from 'fast-check';
import { bases, rpcId } from './bases.js';
import { caseOf, draftOf, nameParamOf } from './case.js';

/** Header values a client can send (visible latin-1, no CR/LF). */
const headerText = (min = 0, max = 40) =>
  fc.string({
    unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~\t\u00e9\u00ff'.split('')),
    minLength: min,
    maxLength: max,
  });

/** Standard headers missing, different from the body, duplicated, or not decodable. */
export const standardHeaders = fc
  .tuple(
    bases,
    rpcId,
    fc.constantFrom('mcp-protocol-version', 'mcp-method', 'mcp-name'),
    fc.constantFrom('missing', 'garbage', 'duplicate', 'bad-base64'),
    headerText(1),
  )
  .map(([b, id, name, how, junk]) => {
    const d = draftOf(b, id);
    const named = nameParamOf(b.method) !== undefined;
    if (name === 'mcp-name' && !named)
      return caseOf(
        'header:unused-mcp-name',
        { ...d, headers: { ...d.headers, 'mcp-name': junk.trim() || 'x' } },
        b.allow,
        { message: b.message },
      );
    const current = String(d.headers[name]);
    if (how === 'missing') delete d.headers[name];
    else if (how === 'duplicate') d.headers[name] = [current, current];
    else if (how === 'bad-base64') d.headers[name] = `=?base64?${junk.replace(/[A-Za-z0-9+/=]/g, '')}!?=`;
    else d.headers[name] = junk.trim() === current || junk.trim() === '' ? `${current}x` : junk;
    // A header that says nothing about a missing Mcp-Protocol-Version routes the request as a 2025-era one.
    const allow =
      name === 'mcp-protocol-version' && how === 'missing'
        ? ['400:-32020', '400:-32600', '400:-32602']
        : ['400:-32020'];
    return caseOf(`header:${name}:${how}`, d, allow);
  });

/** A body that is not declared as JSON. */
export const contentType = fc
  .tuple(
    bases,
    rpcId,
    fc.oneof(
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'application/x-www-form-urlencoded',
        null,
      ),
      headerText(1, 20),
    ),
  )
  .map(([b, id, type]) => {
    const d = draftOf(b, id);
    if (type === null) delete d.headers['content-type'];
    else d.headers['content-type'] = /json/i.test(type) ? 'text/plain' : type;
    return {
      ...caseOf(
        `content-type:${type === null ? 'missing' : /^[a-z]+\//.test(type) ? type.split(';')[0] : 'garbage'}`,
        d,
        ['415:*'],
      ),
      id: null,
    };
  });

/** An `Accept` header that does not list JSON and SSE: the spec allows a 406 or serving anyway. */
export const accept = fc
  .tuple(
    bases,
    rpcId,
    fc.oneof(fc.constantFrom('text/html', 'application/json', 'text/event-stream', '*/*', ''), headerText(0, 20)),
  )
  .map(([b, id, value]) => {
    const d = draftOf(b, id);
    if (value === '') delete d.headers.accept;
    else d.headers.accept = value;
    return caseOf('header:accept', d, [...b.allow, '406:*'], { message: b.message });
  });

/** DNS rebinding: a foreign Host or Origin is refused. */
export const rebinding = fc
  .tuple(
    bases,
    rpcId,
    fc.constantFrom('host', 'origin'),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}\.(com|example|net)$/),
  )
  .map(([b, id, header, domain]) => {
    const d = draftOf(b, id);
    d.headers[header] = header === 'host' ? domain : `https://${domain}`;
    return caseOf(`header:${header}:foreign`, d, ['403:-32600']);
  });

/** Authorization sent to a server without auth: ignored. */
export const strayAuthorization = fc.tuple(bases, rpcId, headerText(0, 60)).map(([b, id, value]) => {
  const d = draftOf(b, id);
  d.headers.authorization = `Bearer ${value}`;
  return caseOf('header:authorization-ignored', d, b.allow, { message: b.message });
});

/** Random extra headers: ignored. */
export const extraHeaders = fc
  .tuple(
    bases,
    rpcId,
    fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), headerText(0, 60), { minKeys: 1, maxKeys: 6 }),
  )
  .map(([b, id, extra]) => {
    const d = draftOf(b, id);
    Object.assign(d.headers, extra);
    return caseOf('header:extra', d, b.allow, { message: b.message });
  });
