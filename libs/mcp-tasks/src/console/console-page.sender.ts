import { Injectable, NotFoundException, StreamableFile } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ConsoleAssets } from './console-assets.js';

/**
 * The page holds no data (that is behind the access rule at `<path>/api`): it loads it with the caller's
 * credentials.
 */
const HEADERS = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** Answers with the page's files through the app's HTTP adapter, so on Express and Fastify alike. */
@Injectable()
export class ConsolePageSender {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly assets: ConsoleAssets,
  ) {}

  /** One of the page's files, with the page's headers; 404 for any other name. */
  file(res: unknown, name: string): void {
    const file = this.assets.get(name);
    if (!file) throw new NotFoundException();
    const adapter = this.host.httpAdapter;
    for (const [header, value] of Object.entries(HEADERS)) adapter.setHeader(res, header, value);
    adapter.reply(res, new StreamableFile(file.body, { type: file.type, length: file.body.length }), 200);
  }

  redirect(res: unknown, location: string): void {
    this.host.httpAdapter.redirect(res, 308, location);
  }
}
