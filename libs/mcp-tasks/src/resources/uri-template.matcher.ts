import { UriTemplate } from '@modelcontextprotocol/server';

/** Operators whose expansion percent-encodes reserved characters: their matched values are decoded back. */
const ENCODING = new Set(['', '.', '/', ';', '?', '&']);

/**
 * An RFC 6570 template (levels 1–2 and the path/query forms of level 3) matched against URIs, on the official SDK's
 * `UriTemplate`. What it adds: values of variables whose expansion encodes (`{id}`, `{/seg}`, `{?q}`) are
 * percent-decoded, as the template's expansion would have encoded them; `{+path}` and `{#frag}` stay as written.
 * A malformed escape is no match.
 */
export class UriTemplateMatcher {
  private readonly template: UriTemplate;
  private readonly decoded = new Set<string>();

  constructor(readonly source: string) {
    this.template = new UriTemplate(source);
    for (const [, op, names] of source.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
      if (!ENCODING.has(op!)) continue;
      for (const name of names!.split(',')) this.decoded.add(name.replace(/[*]|:\d+$/g, '').trim());
    }
  }

  get variableNames(): string[] {
    return this.template.variableNames;
  }

  /** The URI's variables, or `undefined` when the template does not match it. */
  match(uri: string): Record<string, string | string[]> | undefined {
    const found = this.template.match(uri);
    if (!found) return undefined;
    try {
      return Object.fromEntries(
        Object.entries(found).map(([name, value]) => [name, this.decoded.has(name) ? decode(value) : value]),
      );
    } catch {
      return undefined;
    }
  }
}

const decode = (value: string | string[]): string | string[] =>
  Array.isArray(value) ? value.map((v) => decodeURIComponent(v)) : decodeURIComponent(value);
