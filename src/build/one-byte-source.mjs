// V8 keeps the entry's source text in the heap for as long as the server runs, as a
// one-byte string if every character is Latin-1 and as a two-byte string otherwise.
// esbuild escapes non-ASCII characters in code (its default charset is ASCII) but copies
// comments as they are, and one em dash in a bundled package's comment made the whole
// 5 MB bundle a two-byte string: 9.7 MiB of heap instead of 4.9.

const NON_ASCII = /[^\x00-\x7F]/;

/**
 * `source` with every non-ASCII character of its whole-line `//` comments written as
 * `\uXXXX` (a comment reads the same; no code changes). If one stands anywhere else,
 * the source is returned unchanged with that line in `untouched`: code esbuild did not
 * escape is not ours to rewrite, and a larger heap is no reason to fail a build.
 * @param {string} source
 * @returns {{ source: string, untouched: string | null }}
 */
export function asciiComments(source) {
  if (!NON_ASCII.test(source)) return { source, untouched: null };
  const lines = source.split('\n');
  for (const [index, line] of lines.entries()) {
    if (NON_ASCII.test(line) && !line.trimStart().startsWith('//')) {
      return { source, untouched: `line ${index + 1}: ${line.trim().slice(0, 120)}` };
    }
  }
  const escaped = lines.map((line) =>
    line.replace(/[^\x00-\x7F]/g, (/** @type {string} */ char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  return { source: escaped.join('\n'), untouched: null };
}
