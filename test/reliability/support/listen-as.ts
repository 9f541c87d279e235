/**
 * Preloaded into a demo instance (`node --import`): the instance listens on REL_LISTEN_PORT while
 * PORT — from which the demo derives its public address and auth resource — names the address every
 * instance shares, as instances behind one load balancer do. Only `listen(PORT)` is redirected.
 */
import { Server } from 'node:net';

const real = Number(process.env.REL_LISTEN_PORT);
const shared = Number(process.env.PORT);
if (real && shared) {
  // Kept unbound on purpose: the replacement calls it with the server as `this`.
  // oxlint-disable-next-line typescript/unbound-method
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    if (Number(args[0]) === shared) args[0] = real;
    return listen.apply(this, args as never);
  } as typeof listen;
}
