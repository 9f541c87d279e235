import type { BrowserContext, Page } from 'playwright-core';
import { until } from './until.js';

/** Generous: a loaded 2-core CI machine runs the app, the browser and jest at once. */
export const PAGE_WAIT = 30_000;

/** Opens the console at `url` + `path` in a new tab; `cookie` (name=value) is set for the app's host first. */
export async function openConsole(
  context: BrowserContext,
  url: string,
  cookie?: string,
  path = '/mcp-console',
): Promise<Page> {
  await context.clearCookies();
  if (cookie) {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url }]);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT);
  await page.goto(`${url}${path}`, { waitUntil: 'domcontentloaded', timeout: PAGE_WAIT });
  return page;
}

/** The row of task `id` in the list, once it is there (a locator: the list is redrawn at every poll). */
export async function taskRow(page: Page, id: string) {
  const row = page.locator(`#task-list tr[data-task-id="${id}"]`);
  await row.waitFor({ timeout: PAGE_WAIT });
  return row;
}

/** The text of `selector` once `test` accepts it; a failure says what the page last showed there. */
export async function textOf(page: Page, selector: string, test: (text: string) => boolean): Promise<string> {
  let seen: string | null = null;
  let problem = '';
  try {
    return await until(`${selector} text`, async () => {
      seen = await page
        .locator(selector)
        .first()
        .textContent({ timeout: 1_000 })
        .catch((err: Error) => ((problem = err.message.split('\n')[0]), null));
      const text = seen ?? '';
      return test(text) ? text || ' ' : '';
    });
  } catch (err) {
    const banner = await page
      .locator('#banner')
      .textContent({ timeout: 1_000 })
      .catch(() => null);
    throw new Error(
      `${(err as Error).message}; last seen: ${seen === null ? `nothing (${problem})` : JSON.stringify(seen)}` +
        `; banner: ${JSON.stringify(banner)}`,
    );
  }
}

/** Fetches a console data route as a caller with these headers. */
export async function consoleApi(url: string, route: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${url}/mcp-console/api/${route}`, { method, headers });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}
