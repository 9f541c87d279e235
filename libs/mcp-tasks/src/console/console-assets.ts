import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
const FILES = ['index.html', 'console.css', 'console.js', 'api.js', 'dom.js', 'chart.js', 'views.js'];

/** The page's files (plain HTML, CSS and JS modules next to this file), read once at startup. */
@Injectable()
export class ConsoleAssets {
  private readonly files = new Map(
    FILES.map((name) => [
      name,
      { body: readFileSync(new URL(`./page/${name}`, import.meta.url)), type: TYPES[name.split('.').pop()!] },
    ]),
  );

  get(name: string): { body: Buffer; type: string } | undefined {
    return this.files.get(name);
  }
}
