import { describe, expect, it } from 'vitest';
import { splitTarget } from '@/server/http/request-target';

describe('splitTarget', () => {
  it.each([
    ['/ja?x=1', '/ja', 'x=1'],
    ['/', '/', ''],
    [undefined, '/', ''],
    ['//evil.example', '//evil.example', ''],
    ['/%E0%A4%A?_rsc=1', '/%E0%A4%A', '_rsc=1'],
    ['*', '/*', ''],
  ])('%s → path %s, query %s', (target, pathname, query) => {
    const split = splitTarget(target);
    expect(split.pathname).toBe(pathname);
    expect(split.search.toString()).toBe(query);
  });
});
