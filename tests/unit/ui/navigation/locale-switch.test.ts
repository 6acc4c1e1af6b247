import { describe, expect, it } from 'vitest';
import { switchedLocation } from '@/ui/navigation/locale-switch';

function at(pathname: string, search = '', hash = '') {
  return { pathname, search, hash };
}

describe('switchedLocation', () => {
  it.each([
    ['ja', '/', '/ja'],
    ['zh-CN', '/', '/zh-CN'],
    ['en', '/', '/'],
    ['ja', '/foo', '/ja/foo'],
    ['en', '/ja', '/'],
    ['en', '/ja/foo', '/foo'],
    ['zh-CN', '/ja/foo/bar', '/zh-CN/foo/bar'],
    ['ja', '/zh-CN', '/ja'],
    ['ja', '/ja/foo', '/ja/foo'],
    ['en', '/foo', '/foo'],
    // The router may report a rewritten English page by its internal path.
    ['ja', '/en/x', '/ja/x'],
    ['en', '/en/x', '/x'],
    ['en', '/en', '/'],
  ] as const)('to %s from %s → %s', (target, pathname, expected) => {
    expect(switchedLocation(target, at(pathname))).toBe(expected);
  });

  it('keeps the query and the hash', () => {
    expect(switchedLocation('ja', at('/foo', '?a=1&b=2', '#section'))).toBe('/ja/foo?a=1&b=2#section');
    expect(switchedLocation('en', at('/zh-CN', '?q=x', '#top'))).toBe('/?q=x#top');
    expect(switchedLocation('zh-CN', at('/', '', '#features'))).toBe('/zh-CN#features');
  });
});
