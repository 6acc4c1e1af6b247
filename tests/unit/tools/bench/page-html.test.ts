import { describe, expect, it } from 'vitest';
import { readPageHtml } from '../../../../tools/bench/page-html.mjs';

const CSS = '.a{color:red}';
const payload =
  `1:I[123,["/_next/static/chunks/a.js"],"Carousel"]\n` +
  `7:T${CSS.length.toString(16)},${CSS}` +
  `8:T5,data:` +
  `6:["$","style","0",{"precedence":"next","href":"/a.css","children":"$7"}]\n` +
  `9:["$","p",null,{"children":"Hello"}]\n`;

const page = (push: string) =>
  `<html><head><style data-href="/a.css">${CSS}</style></head><body><p>Hello</p>` +
  `<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>${push}</script></body></html>`;

describe('readPageHtml', () => {
  it.each([
    ['as Next writes it', `self.__next_f.push([1,${JSON.stringify(payload)}])`],
    ['single-quoted, as our build writes it', `self.__next_f.push([1,'${payload.replace(/\n/g, '\\n')}'])`],
  ])('splits the page into markup, inline CSS, page data and other scripts (page data %s)', (_, push) => {
    const html = page(push);
    const result = readPageHtml(html);
    const pushBytes = Buffer.byteLength(`<script>${push}</script>`);
    const styleBytes = Buffer.byteLength(`<style data-href="/a.css">${CSS}</style>`);
    const otherScripts = Buffer.byteLength('<script>(self.__next_f=self.__next_f||[]).push([0])</script>');
    expect(result).toMatchObject({
      bytes: Buffer.byteLength(html),
      pageDataBytes: pushBytes,
      styleBytes,
      otherScriptBytes: otherScripts,
      markupBytes: Buffer.byteLength(html) - pushBytes - styleBytes - otherScripts,
      pageDataRows: {
        'stylesheet text': CSS.length,
        'other text': 5,
        'client references': Buffer.byteLength('I[123,["/_next/static/chunks/a.js"],"Carousel"]'),
        elements: Buffer.byteLength(
          '["$","style","0",{"precedence":"next","href":"/a.css","children":"$7"}]["$","p",null,{"children":"Hello"}]',
        ),
      },
    });
    expect(result.largestRows[0]).toMatchObject({ id: '6', kind: 'elements' });
  });
});
