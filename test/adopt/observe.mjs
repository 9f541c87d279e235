// The app `nest new` (12) makes by default, with @nestjs/observe: our module added by editing its generated files, as
// a user would (not by replacing them), and a stand-in for Observe's collector so that the app sends nothing out.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

// The module as fixtures/common/src/app.module.ts configures it.
const IMPORTS = [
  "import { McpTasksModule } from '@mcp-tasks/nestjs';",
  "import { EchoModule } from './adopt/echo.module.js';",
  "import { DOCS_SAMPLES } from './adopt/docs-samples.js';",
];
const MODULE_ENTRIES = `
    McpTasksModule.forRoot({
      server: { name: 'adopt-app', version: '1.0.0' },
      ttl: 10 * 60_000,
      pollInterval: 100,
      maxPerPrincipal: 20,
    }),
    EchoModule,`;

/** Replaces the one match of `pattern` in `text` by `by`; throws naming `what` when there is none or several. */
function editOnce(text, pattern, by, what) {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? [];
  if (matches.length !== 1) throw new Error(`src/app.module.ts as generated: ${matches.length} matches for ${what}`);
  return text.replace(pattern, by);
}

/**
 * Copies the tools of fixtures/common/src/adopt/ into the app and edits the generated app.module.ts: our imports
 * after its last import, `McpTasksModule.forRoot(…)` and the tool's module at the end of its `imports` (after
 * `ObserveModule.forRoot(…)`), the samples' providers next to `AppService`. main.ts is left as generated. Throws if
 * the files are not the observed app this case is about (no `ObserveModule.forRoot`, no `instrument` in main.ts).
 */
export function addModuleToObserveApp(dir, fixtures) {
  const main = fs.readFileSync(path.join(dir, 'src/main.ts'), 'utf8');
  const file = path.join(dir, 'src/app.module.ts');
  let module = fs.readFileSync(file, 'utf8');
  if (!/instrument:\s*ObserveInstrument/.test(main) || !module.includes('ObserveModule.forRoot('))
    throw new Error('nest new made no @nestjs/observe app (no ObserveModule.forRoot, or no instrument in main.ts)');
  fs.cpSync(path.join(fixtures, 'common/src/adopt'), path.join(dir, 'src/adopt'), { recursive: true });
  module = editOnce(module, /^(import .*;\n)(?!import )/m, `$1${IMPORTS.join('\n')}\n`, 'the last import');
  module = editOnce(module, /(\n\s*\],\n\s*controllers:)/, `${MODULE_ENTRIES}$1`, 'the end of imports: [ … ]');
  module = editOnce(module, /providers: \[AppService\]/, 'providers: [AppService, ...DOCS_SAMPLES]', 'providers');
  fs.writeFileSync(file, module);
}

/**
 * A stand-in for Observe's collector (`OBSERVE_ENDPOINT`) on a loopback port: answers every batch 200 and keeps its
 * text. `url`, `text()`, `close()`.
 */
export function startCollector() {
  let text = '';
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        text += (req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body).toString();
      } catch {
        text += body.toString();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        text: () => text,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
