import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The first value of a header a proxy may have appended to (`a, b`), if any. */
export const firstValue = (v: string | string[] | undefined): string | undefined =>
  (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim() || undefined;

/** The host a request was sent to: `X-Forwarded-Host` when proxies are trusted, else `Host`. */
export const requestHost = (req: IncomingMessage, trustProxy: boolean): string | undefined =>
  (trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? firstValue(req.headers.host);

/** Whether the request reached the server on one of its loopback addresses. */
export const arrivedOnLoopback = (req: IncomingMessage): boolean => LOOPBACK.test(req.socket.localAddress ?? '');

/**
 * The host names a request may be sent to: `allowedHosts`, else the localhost names when it reached the server on
 * loopback, else none is known (`undefined`).
 */
export const allowedHostsFor = (req: IncomingMessage, allowedHosts?: string[]): string[] | undefined =>
  allowedHosts ?? (arrivedOnLoopback(req) ? localhostAllowedHostnames() : undefined);
