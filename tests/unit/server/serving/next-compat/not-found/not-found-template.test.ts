import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '@/server/serving/edge/content-security-policy';
import {
  compileNotFoundTemplate,
  fillNotFoundBody,
  fillNotFoundTemplate,
  fitsTemplate,
  notFoundScriptHashes,
  payloadQuery,
  TEMPLATE_MARKER,
  TemplateError,
} from '@/server/serving/next-compat/not-found/not-found-template';

const M = TEMPLATE_MARKER;

/** The shape of Next's not-found HTML for `/ja/<marker>`: each slot once. */
const JA_PAGE =
  `<html lang="ja"><head><link rel="canonical" href="/ja/${M}"/><link rel="alternate" hrefLang="en" href="/${M}"/></head>` +
  `<body><p>ページが見つかりません：/ja/${M}</p>` +
  `<script>self.__next_f.push([1,"0:{\\"c\\":[\\"\\",\\"ja\\",\\"${M}\\"],\\"q\\":\\"\\"}\\n` +
  `5:[\\"$\\",\\"link\\",null,{\\"href\\":\\"/zh-CN/${M}\\"}]\\n` +
  `6:[\\"$\\",\\"p\\",null,{\\"children\\":\\"ページが見つかりません：/ja/${M}\\"}]\\n"])</script></body></html>`;

describe('compileNotFoundTemplate', () => {
  it('finds every place the path appears, and where the query goes', () => {
    const template = compileNotFoundTemplate(JA_PAGE, 'ja');
    expect(template.slots).toEqual([
      'link-html',
      'link-html',
      'shown-html',
      'segments-payload',
      'query-payload',
      'link-payload',
      'shown-payload',
    ]);
    const slotText = (slot: string) => (slot === 'query-payload' ? '' : M);
    expect(template.pieces.map((piece, index) => piece + (template.slots[index] ? slotText(template.slots[index]) : '')).join('')).toBe(
      JA_PAGE,
    );
  });

  it('refuses a page that shows the path somewhere it does not know', () => {
    expect(() => compileNotFoundTemplate(`${JA_PAGE}<title>${M}</title>`, 'ja')).toThrow(TemplateError);
  });

  it('refuses a page that lacks a place it must fill', () => {
    const withoutSegments = JA_PAGE.replace(`\\"c\\":[\\"\\",\\"ja\\",\\"${M}\\"]`, '\\"c\\":[]');
    expect(() => compileNotFoundTemplate(withoutSegments, 'ja')).toThrow(/segments-payload/);
  });
});

describe('fitsTemplate', () => {
  it.each([
    ['/foo', 'en', true],
    ['/a/b/c', 'en', true],
    ['/ja/x', 'ja', true],
    ["/zh-CN/a&b'c:d@e", 'zh-CN', true],
    ['/%E6%97%A5', 'en', true],
    ['/%zz', 'en', true],
    ['/ja', 'ja', false],
    ['/ja/', 'ja', false],
    ['/a//b', 'en', false],
    ['/a/', 'en', false],
    ['/$x', 'en', false],
    ['/a"b', 'en', false],
    ['/a<b', 'en', false],
    ['/日本', 'en', false],
    [`/${'x'.repeat(1000)}`, 'en', false],
  ] as const)('%s in %s → %s', (path, locale, expected) => {
    expect(fitsTemplate({ locale, acceptsQuery: true }, path)).toBe(expected);
  });

  it.each([
    ['a=1&b=%20c', true],
    ["url=%2Fa.png&w=640&q=75:@!$'()*+,;/?", true],
    ['a="b"', false],
    ['a=<b>', false],
    ['a=日本', false],
    ['a=b#c', false],
    [`q=${'x'.repeat(1000)}`, false],
  ] as const)('a query %s → %s, if the template has a place for it', (query, expected) => {
    expect(fitsTemplate({ locale: 'en', acceptsQuery: true }, '/nope', query)).toBe(expected);
    expect(fitsTemplate({ locale: 'en', acceptsQuery: false }, '/nope', query)).toBe(false);
  });
});

describe('payloadQuery', () => {
  it.each([
    ['', '', ''],
    ['a=1&b=%20c&a=2', '?a=1&a=2&b=+c', '?a=1&a=2&b=%20c'],
    ["h$i'j", '?h%24i%27j=', "?h%24i'j="],
    ['k(l)m*n+o,p;q', '?k%28l%29m*n+o%2Cp%3Bq=', '?k(l)m*n%20o%2Cp%3Bq='],
    ['x=%E4%B8%AD&y=%zz', '?x=%E4%B8%AD&y=%25zz', '?x=%E4%B8%AD&y=%25zz'],
    ['=a&&b', '?=a&b=', '?=a&b='],
  ])('%s: as Next writes it after the segments (%s) and as q (%s)', (query, inSegments, search) => {
    expect(payloadQuery(query)).toEqual({ inSegments, search });
  });
});

describe('a query in the template', () => {
  it('goes after the last segment and into q, as Next renders it', () => {
    const template = compileNotFoundTemplate(JA_PAGE, 'ja');
    expect(template.acceptsQuery).toBe(true);
    const html = fillNotFoundTemplate(template, '/ja/a/b', payloadQuery("x=1&y=%20'&x=2"));
    expect(html).toContain(
      `\\"c\\":[\\"\\",\\"ja\\",\\"a\\",\\"b?x=1\\u0026x=2\\u0026y=+%27\\"],\\"q\\":\\"?x=1\\u0026x=2\\u0026y=%20'\\"`,
    );
    expect(html).toContain('href="/ja/a/b"');
    const query = payloadQuery('x=1');
    expect(fillNotFoundBody(template, '/ja/a/b', query).equals(Buffer.from(fillNotFoundTemplate(template, '/ja/a/b', query)))).toBe(true);
    expect(notFoundScriptHashes(template, '/ja/a/b', query)).toEqual(inlineScriptHashes(fillNotFoundTemplate(template, '/ja/a/b', query)));
  });

  it('has no place for one when the payload has no empty q after the segments', () => {
    expect(compileNotFoundTemplate(JA_PAGE.replace('\\"q\\":\\"\\"', '\\"q\\":null'), 'ja').acceptsQuery).toBe(false);
  });
});

describe('fillNotFoundTemplate', () => {
  const template = compileNotFoundTemplate(JA_PAGE, 'ja');

  it('puts the decoded path in the text, the raw path in links and its segments in the payload', () => {
    const html = fillNotFoundTemplate(template, '/ja/a/%E6%97%A5');
    expect(html).toContain('href="/ja/a/%E6%97%A5"');
    expect(html).toContain('href="/a/%E6%97%A5"');
    expect(html).toContain('<p>ページが見つかりません：/ja/a/日</p>');
    expect(html).toContain('\\"c\\":[\\"\\",\\"ja\\",\\"a\\",\\"%E6%97%A5\\"]');
    expect(html).toContain('\\"href\\":\\"/zh-CN/a/%E6%97%A5\\"');
    expect(html).toContain('\\"children\\":\\"ページが見つかりません：/ja/a/日\\"');
  });

  it('escapes markup in the text and quotes and script ends in the payload', () => {
    const html = fillNotFoundTemplate(template, "/ja/%3C/script%3E%22'&");
    expect(html).toContain('<p>ページが見つかりません：/ja/&lt;/script&gt;&quot;&#x27;&amp;</p>');
    expect(html).toContain('\\"children\\":\\"ページが見つかりません：/ja/\\u003c/script\\u003e\\\\\\"\'\\u0026\\"');
    expect(html).not.toContain('</script>"');
  });

  it('shows a line separator, which would end a script string, escaped', () => {
    const html = fillNotFoundTemplate(template, '/ja/%E2%80%A8');
    expect(html).toContain('\\"children\\":\\"ページが見つかりません：/ja/%E2%80%A8\\"');
  });

  it.each(['/ja/x', '/ja/%E2%80%AE%00', `/ja/${'a'.repeat(300)}`, "/ja/a'b&c"])(
    'hashes the inline scripts of %s’s page as a browser does',
    (path) => {
      const withOtherScripts = compileNotFoundTemplate(
        JA_PAGE.replace('</head>', '<script>boot()</script><script src="/x.js"></script></head>'),
        'ja',
      );
      expect(notFoundScriptHashes(withOtherScripts, path)).toEqual(inlineScriptHashes(fillNotFoundTemplate(withOtherScripts, path)));
      expect(notFoundScriptHashes(withOtherScripts, path)).toHaveLength(2);
    },
  );

  it('cuts the shown path and the links at 200 characters', () => {
    const long = `/ja/${'a'.repeat(300)}`;
    const html = fillNotFoundTemplate(template, long);
    expect(html).toContain(`<p>ページが見つかりません：/ja/${'a'.repeat(196)}…</p>`);
    expect(html).toContain(`href="/ja/${'a'.repeat(199)}"`);
    expect(html).toContain(`\\"${'a'.repeat(300)}\\"]`);
  });
});

describe('fillNotFoundBody', () => {
  const template = compileNotFoundTemplate(JA_PAGE, 'ja');

  it.each(['/ja/a', '/ja/a/%E6%97%A5', "/ja/%3C/script%3E%22'&", '/ja/%E2%80%A8', '/ja/%F0%9F%98%80/x', `/ja/${'a'.repeat(300)}`])(
    'is the UTF-8 of the filled-in page for %s, byte for byte',
    (path) => {
      expect(fillNotFoundBody(template, path).equals(Buffer.from(fillNotFoundTemplate(template, path)))).toBe(true);
    },
  );
});
