import { describe, expect, it } from 'vitest';
import { staticTwin } from '../../../../tools/bench/static-twin.mjs';

describe('staticTwin', () => {
  it('removes every script and script preload, and leaves the HTML and CSS as they were', () => {
    const html =
      '<!DOCTYPE html><html lang="ja"><head><meta charSet="utf-8"/><style>.a{color:red}</style>' +
      '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>' +
      '<script src="/_next/static/chunks/b.js" async=""></script><link rel="modulepreload" href="/c.js"/>' +
      '<link rel="icon" href="/favicon.svg"/></head><body><p>本文</p>' +
      "<script>self.__next_f.push([1,'<\\/script> in a string'])</script>" +
      '<SCRIPT type="application/json">{"a":1}</SCRIPT ></body></html>';
    expect(staticTwin(html)).toBe(
      '<!DOCTYPE html><html lang="ja"><head><meta charSet="utf-8"/><style>.a{color:red}</style>' +
        '<link rel="icon" href="/favicon.svg"/></head><body><p>本文</p></body></html>',
    );
  });
});
