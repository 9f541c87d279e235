/**
 * Preloaded into the demo (`node --import`): every connection it accepts reports 192.0.2.1 (TEST-NET) as its local
 * address, as a connection from another machine to a LAN interface would. The server tells loopback from the rest
 * by that address alone, so the demo behaves as served beyond loopback on any machine, LAN interface or not.
 */
import { Server, type Socket } from 'node:net';

// Kept unbound on purpose: the replacement calls it with the server as `this`.
// oxlint-disable-next-line typescript/unbound-method
const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === 'connection') Object.defineProperty(args[0] as Socket, 'localAddress', { value: '192.0.2.1' });
  return emit.call(this, event, ...args);
} as typeof Server.prototype.emit;
