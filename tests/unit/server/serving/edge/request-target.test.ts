import { describe, expect, it } from 'vitest';
import { originForm, splitTarget } from '@/server/serving/edge/request-target';

describe('splitTarget', () => {
  it.each([
    ['/ja?x=1', '/ja', 'x=1'],
    ['/', '/', ''],
    [undefined, '/', ''],
    ['//evil.example', '//evil.example', ''],
    ['/%E0%A4%A?_rsc=1', '/%E0%A4%A', '_rsc=1'],
    ['/ja?', '/ja', ''],
    ['/ja?a=%ZZ&b', '/ja', 'a=%ZZ&b'],
    ['*', '/*', ''],
  ])('%s → path %s, query %s', (target, pathname, query) => {
    const split = splitTarget(target);
    expect(split.pathname).toBe(pathname);
    expect(split.query).toBe(query);
  });
});

describe('originForm', () => {
  it.each([
    ['/ja?x=1', '/ja?x=1'],
    ['http://evil.example/', '/'],
    ['http://evil.example', '/'],
    ['https://evil.example:443/ja/x?y=1', '/ja/x?y=1'],
    ['HTTP://evil.example?x', '/?x'],
    ['http://evil.example//other.example/', '//other.example/'],
    ['*', '*'],
    ['evil.example:443', 'evil.example:443'],
  ])('%s → %s', (target, expected) => {
    expect(originForm(target)).toBe(expected);
  });
});
