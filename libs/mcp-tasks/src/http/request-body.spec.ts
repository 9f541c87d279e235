import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { readRequestBody } from './request-body.js';

/** A POST whose body arrives through `stream`, as Node's request would carry it. */
const post = (stream: PassThrough): IncomingMessage =>
  Object.assign(stream, { method: 'POST', headers: { 'content-type': 'application/json' } }) as never;

describe('readRequestBody without a body parser', () => {
  it('reads the whole body; the request closing once answered changes nothing', async () => {
    const stream = new PassThrough();
    const body = readRequestBody(post(stream));
    stream.write('{"jsonrpc":"2.0",');
    stream.end('"id":1,"method":"tasks/get"}');
    await expect(body).resolves.toEqual({ jsonrpc: '2.0', id: 1, method: 'tasks/get' });
    stream.emit('close');
    await expect(body).resolves.toEqual({ jsonrpc: '2.0', id: 1, method: 'tasks/get' });
  });

  it('fails when the client goes away before the body ended', async () => {
    const stream = new PassThrough();
    const body = readRequestBody(post(stream));
    stream.write('{"jsonrpc":"2.0",');
    stream.emit('close');
    await expect(body).rejects.toThrow('the request body was cut short');
  });

  it('refuses a body over the limit with 413 -32600', async () => {
    const stream = new PassThrough();
    const body = readRequestBody(post(stream), 10);
    stream.end('{"jsonrpc":"2.0","id":1}');
    await expect(body).rejects.toMatchObject({ code: -32600, httpStatus: 413 });
  });
});
