import { describe, expect, it } from 'vitest';
import { asciiComments } from '../../../src/build/one-byte-source.mjs';

describe('asciiComments', () => {
  it('leaves an ASCII source as it is', () => {
    const source = 'const a = "x";\n// a comment\n';
    expect(asciiComments(source)).toEqual({ source, untouched: null });
  });

  it('escapes non-ASCII characters of line comments, the code around them untouched', () => {
    const source = "a();\n    // zero \u2014 nothing is a multiple of it; Tipus d'uni\u00f3\nb();";
    const { source: out, untouched } = asciiComments(source);
    expect(out).toBe("a();\n    // zero \\u2014 nothing is a multiple of it; Tipus d'uni\\u00f3\nb();");
    expect(/[^\x00-\x7F]/.test(out)).toBe(false);
    expect(untouched).toBeNull();
  });

  it('rewrites nothing when a non-ASCII character stands in code, and names the line', () => {
    for (const [source, line] of [
      ['const dash = "\u2014"; // note', 1],
      ['// \u2014\nx();\nconst s = `\u00e9`;', 3],
    ] as const) {
      const result = asciiComments(source);
      expect(result.source).toBe(source);
      expect(result.untouched).toMatch(new RegExp(`^line ${line}: `));
    }
  });
});
