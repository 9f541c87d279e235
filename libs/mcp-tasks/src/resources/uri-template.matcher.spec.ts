import { describe, expect, it } from '@jest/globals';
import { UriTemplateMatcher } from './uri-template.matcher.js';

describe('UriTemplateMatcher', () => {
  it('matches a level-1 variable inside a path, and nothing across a slash', () => {
    const m = new UriTemplateMatcher('test://template/{id}/data');
    expect(m.match('test://template/123/data')).toEqual({ id: '123' });
    expect(m.match('test://template/1/2/data')).toBeUndefined();
    expect(m.match('test://template/123/other')).toBeUndefined();
  });

  it('decodes a simple variable and keeps a reserved one as written', () => {
    expect(new UriTemplateMatcher('x://users/{name}').match('x://users/a%20b')).toEqual({ name: 'a b' });
    expect(new UriTemplateMatcher('file:///{+path}').match('file:///docs/a%20b.md')).toEqual({
      path: 'docs/a%20b.md',
    });
  });

  it('reads path segments and query variables', () => {
    expect(new UriTemplateMatcher('x://p{/seg}').match('x://p/one')).toEqual({ seg: 'one' });
    expect(new UriTemplateMatcher('x://search{?q,lang}').match('x://search?q=caf%C3%A9&lang=fr')).toEqual({
      q: 'café',
      lang: 'fr',
    });
  });

  it('is no match for a malformed escape or an empty variable', () => {
    expect(new UriTemplateMatcher('x://users/{name}').match('x://users/%E0%A4%A')).toBeUndefined();
    expect(new UriTemplateMatcher('x://{id}').match('x://')).toBeUndefined();
  });

  it('names its variables', () => {
    expect(new UriTemplateMatcher('x://{a}/{+b}{?c,d}').variableNames).toEqual(['a', 'b', 'c', 'd']);
  });
});
