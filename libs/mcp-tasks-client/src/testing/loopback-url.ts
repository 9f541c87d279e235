import type { AddressInfo } from 'node:net';

/**
 * The URL of `path` on a server bound to `address`, reached over loopback: a wildcard bind
 * (`0.0.0.0`, `::`) is addressed as `127.0.0.1` / `[::1]`, so the request's `Host` is a loopback
 * name that the endpoint's DNS-rebinding check accepts.
 * @publicApi
 */
export function loopbackUrl(address: AddressInfo, path: string): URL {
  const host =
    address.family === 'IPv6'
      ? `[${address.address === '::' ? '::1' : address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  return new URL(path, `http://${host}:${address.port}`);
}
