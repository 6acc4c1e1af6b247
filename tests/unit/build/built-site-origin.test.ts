import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBuiltSiteOrigin, textRowsWithBuiltOrigin } from '../../../src/build/built-site-origin.mjs';
import { BUILT_SITE_ORIGIN } from '../../../src/shared/site-origin.mjs';

const link = `0:["$","link",null,{"rel":"canonical","href":"${BUILT_SITE_ORIGIN}/ja"}]\n`;
const textRow = (id: string, text: string) => `${id}:T${Buffer.byteLength(text).toString(16)},${text}`;

describe('textRowsWithBuiltOrigin', () => {
  it('finds the stand-in origin in a text row, whose length the swap would falsify', () => {
    expect(textRowsWithBuiltOrigin(`${link}${textRow('1f', `see ${BUILT_SITE_ORIGIN}/ja ${'x'.repeat(1100)}`)}2:"$1f"\n`)).toEqual(['1f']);
  });

  it('leaves it in JSON rows, where a swap of any length is sound', () => {
    expect(textRowsWithBuiltOrigin(`${link}${textRow('3', 'no origin here: 日本語')}4:"$3"\n`)).toEqual([]);
  });
});

describe('checkBuiltSiteOrigin', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a build with the stand-in in a segment payload’s text row, naming the file and the row', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'meridian-built-origin-'));
    mkdirSync(path.join(dir, 'ja.segments'), { recursive: true });
    writeFileSync(path.join(dir, 'ja.rsc'), link);
    writeFileSync(path.join(dir, 'ja.html'), `<p>${BUILT_SITE_ORIGIN}</p>`);
    expect(() => checkBuiltSiteOrigin(dir as string)).not.toThrow();
    writeFileSync(path.join(dir, 'ja.segments', '__PAGE__.segment.rsc'), textRow('a', BUILT_SITE_ORIGIN));
    expect(() => checkBuiltSiteOrigin(dir as string)).toThrow(/ja\.segments\/__PAGE__\.segment\.rsc holds .* in text row a/);
  });
});
