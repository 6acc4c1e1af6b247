import { describe, expect, it } from 'vitest';
import { displayedPath } from '@/shared/displayed-path';

describe('displayedPath', () => {
  it.each([
    ['/foo', '/foo'],
    ['/', '/'],
    ['/%E3%81%82%E3%81%84', '/あい'],
    ['/a%20b', '/a b'],
    ['/%E4%B8%AD%E6%96%87/x', '/中文/x'],
    ['/%3Cscript%3E', '/<script>'],
  ])('shows %j as %j', (requested, shown) => {
    expect(displayedPath(requested)).toBe(shown);
  });

  it.each([
    ['a NUL', '/a%00b', '/a%00b'],
    ['a raw NUL', '/a\u0000b', '/a%00b'],
    ['a right-to-left override', '/%E2%80%AEtxt.exe', '/%E2%80%AEtxt.exe'],
    ['a raw right-to-left override', '/\u202etxt.exe', '/%E2%80%AEtxt.exe'],
    ['the other bidi controls', '/%E2%80%8F%E2%81%A6%E2%81%A9%D8%9C', '/%E2%80%8F%E2%81%A6%E2%81%A9%D8%9C'],
    ['C0 and C1 controls, DEL', '/%1B%5B31m%7F%C2%85', '/%1B[31m%7F%C2%85'],
    ['a line separator', '/a%E2%80%A8b', '/a%E2%80%A8b'],
    ['a lone surrogate', '/a\ud800b', '/a%EF%BF%BDb'],
  ])('escapes %s instead of showing it: %j → %j', (_, requested, shown) => {
    expect(displayedPath(requested)).toBe(shown);
  });

  it('shows letters of every script, and emoji, as they are', () => {
    expect(displayedPath('/%D7%A9%D7%9C%D7%95%D7%9D/%F0%9F%98%80/%D9%85%D8%B1%D8%AD%D8%A8%D8%A7')).toBe('/שלום/😀/مرحبا');
  });

  it.each(['/%', '/%E0%A4%A', '/100%', '/%ZZ'])('shows malformed %j as it was sent', (requested) => {
    expect(displayedPath(requested)).toBe(requested);
  });

  it('keeps a path of 200 characters whole', () => {
    const path = `/${'a'.repeat(199)}`;
    expect(displayedPath(path)).toBe(path);
  });

  it('cuts a longer path to 200 characters and an ellipsis', () => {
    const path = `/${'a'.repeat(200)}`;
    expect(displayedPath(path)).toBe(`${path.slice(0, 200)}…`);
    expect(displayedPath(`/${'b'.repeat(10_000)}`)).toHaveLength(201);
  });

  it('measures the decoded path', () => {
    // 67 encoded characters (201 bytes of %XX) decode to 1 + 67 characters: no cut.
    const encoded = `/${'%E3%81%82'.repeat(67)}`;
    expect(displayedPath(encoded)).toBe(`/${'あ'.repeat(67)}`);
  });
});
