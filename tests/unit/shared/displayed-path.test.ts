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
