import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { checkConsoleHost } from './console-host.check.js';
import { ConsoleTarget } from './console-target.js';

/**
 * Runs the console's Host/Origin check on each of its routes. Middleware, so it comes before every guard (the
 * app-wide ones included) and any data read, as the endpoint's own check does.
 */
@Injectable()
export class ConsoleHostMiddleware implements NestMiddleware {
  constructor(private readonly target: ConsoleTarget) {}

  use(req: IncomingMessage, _res: unknown, next: () => void): void {
    checkConsoleHost(req, this.target.registration.options);
    next();
  }
}
