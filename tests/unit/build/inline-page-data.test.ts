import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { payloadRows, singleQuoted, trimInlinePageData } from '../../../src/build/inline-page-data.mjs';

const CSS_A = '/_next/static/chunks/a.css?dpl=x';
const CSS_B = '/_next/static/chunks/b.css?dpl=x';

/** A text row as React writes it: its length in UTF-8 bytes, in hex. */
const textRow = (id: string, text: string) => `${id}:T${Buffer.byteLength(text).toString(16)},${text}`;
const styleElement = (href: string, children: string) =>
  `["$","style","0",{"nonce":"$undefined","precedence":"next","href":${JSON.stringify(href)},"children":${JSON.stringify(children)}}]`;
/** An inline push the way Next writes it (JSON, with <, >, & and the line separators escaped). */
const push = (payload: string) =>
  `<script>self.__next_f.push([1,${JSON.stringify(payload).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}])</script>`;
const page = (styleHrefs: string[], ...pushes: string[]) =>
  `<!DOCTYPE html><html><head><style data-precedence="next" data-href="${styleHrefs.join(' ')}">.a{color:red}</style></head>` +
  `<body><main>Hello</main><script>(self.__next_f=self.__next_f||[]).push([0])</script>${pushes.map(push).join('')}</body></html>`;

/** What the page's scripts hand React: every script run in order, as a browser would, and the pushed text. */
function payloadOf(html: string): string {
  const self: { __next_f?: unknown[][] } = {};
  for (const [, source] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) runInNewContext(source ?? '', { self });
  return (self.__next_f ?? [])
    .filter((entry) => entry[0] === 1)
    .map((entry) => entry[1])
    .join('');
}

describe('payloadRows', () => {
  it('reads text rows by their byte length, multi-byte characters included', () => {
    const rows = payloadRows(`${textRow('7', '.a{content:"日本語"}')}8:["$","p",null,{}]\n${textRow('9', 'x')}`);
    expect(rows).toEqual([
      { id: '7', text: '.a{content:"日本語"}' },
      { id: '8', line: '["$","p",null,{}]' },
      { id: '9', text: 'x' },
    ]);
  });

  it('refuses a text row longer than its push', () => {
    expect(() => payloadRows('7:T20,short')).toThrow(/text row 7 runs past its push/);
  });
});

describe('singleQuoted', () => {
  it('is a JavaScript string of the same text, which no </script> or <!-- can end', () => {
    const text = `'quoted' "double" \\ back\nline\r\t\u2028\u2029</script><!-- 日本語 \u0001`;
    const literal = singleQuoted(text);
    expect(runInNewContext(literal)).toBe(text);
    expect(literal).not.toMatch(/<|[\n\r\u2028\u2029]/);
  });
});

describe('trimInlinePageData', () => {
  it('empties the text rows of stylesheets the document carries, wherever they are referenced', () => {
    const html = page(
      [CSS_A],
      `${textRow('7', '.a{color:red}')}6:[${styleElement(CSS_A, '$7')}]\n`,
      `${textRow('2b', '.a{color:red}')}a:{"errorStyles":[${styleElement(CSS_A, '$2b')}]}\n`,
    );
    const { html: trimmed, savedBytes } = trimInlinePageData(html);
    expect(payloadOf(trimmed)).toBe(`7:T0,6:[${styleElement(CSS_A, '$7')}]\n2b:T0,a:{"errorStyles":[${styleElement(CSS_A, '$2b')}]}\n`);
    expect(savedBytes).toBe(Buffer.byteLength(html) - Buffer.byteLength(trimmed));
    // The document's own stylesheet is untouched.
    expect(trimmed).toContain('<style data-precedence="next" data-href="/_next/static/chunks/a.css?dpl=x">.a{color:red}</style>');
  });

  it('empties a stylesheet text written inline in its element', () => {
    const { html } = trimInlinePageData(page([CSS_A], `6:[${styleElement(CSS_A, '.a{color:red}')}]\n`));
    expect(payloadOf(html)).toBe(`6:[${styleElement(CSS_A, '')}]\n`);
  });

  it('reads every href of a <style> that carries several', () => {
    const { html } = trimInlinePageData(page([CSS_A, CSS_B], `${textRow('7', '.b{}')}6:[${styleElement(CSS_B, '$7')}]\n`));
    expect(payloadOf(html)).toBe(`7:T0,6:[${styleElement(CSS_B, '$7')}]\n`);
  });

  it('hands React the same text for everything else, in fewer bytes', () => {
    const payload =
      `${textRow('7', '.b{color:blue}')}${textRow('8', `data:image/svg+xml,<svg a="1" b='2'/>`)}6:[${styleElement(CSS_B, '$7')}]\n` +
      `9:["$","p",null,{"children":"</script><b> & ü \\"quoted\\" it's"}]\n`;
    const html = page([CSS_A], payload);
    const { html: trimmed, savedBytes } = trimInlinePageData(html);
    expect(payloadOf(trimmed)).toBe(payload);
    expect(savedBytes).toBeGreaterThan(0);
    // The same scripts, in the same places: the page's two plus the one push.
    expect(trimmed.match(/<script>/g)).toHaveLength(2);
    expect(trimmed.replace(/<script>[\s\S]*?<\/script>/g, '')).toBe(html.replace(/<script>[\s\S]*?<\/script>/g, ''));
  });
});
