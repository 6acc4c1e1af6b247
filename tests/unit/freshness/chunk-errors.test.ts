import { describe, expect, it } from 'vitest';
import { isChunkLoadError, isChunkResourceFailure } from '@/freshness/chunk-errors';

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('isChunkLoadError', () => {
  // The messages as the runtimes in node_modules/next/dist build them.
  it.each([
    ['Turbopack, from a module', named('ChunkLoadError', 'Failed to load chunk /_next/static/chunks/0e5buymq-qp0w.js from module 61234')],
    [
      'Turbopack, as a runtime dependency',
      named(
        'ChunkLoadError',
        'Failed to load chunk /_next/static/chunks/a1.js as a runtime dependency of chunk /_next/static/chunks/b2.js',
      ),
    ],
    ['Turbopack, name lost', new Error('Failed to load chunk /_next/static/chunks/0abc.js from module 4: TypeError: Failed to fetch')],
    ['webpack', new Error('Loading chunk 812 failed.\n(error: https://x.example/_next/static/chunks/812.js)')],
    ['webpack, a named chunk', new Error('Loading chunk app/[locale]/page failed.\n(missing: https://x.example/a.js)')],
    ['webpack CSS', new Error('Loading css chunk 812 failed.\n(error: https://x.example/_next/static/css/812.css)')],
    ['mini-css-extract-plugin', new Error('Loading CSS chunk 812 failed.\n(https://x.example/_next/static/css/812.css)')],
    ['Chrome', new TypeError('Failed to fetch dynamically imported module: https://x.example/_next/static/chunks/a.js')],
    ['Firefox', new TypeError('error loading dynamically imported module: https://x.example/_next/static/chunks/a.js')],
    ['Safari', new TypeError('Importing a module script failed.')],
    ['the name alone', named('ChunkLoadError', 'something else')],
    ['an error-like object', { name: 'Error', message: 'Failed to load chunk /_next/static/chunks/a.js from module 1' }],
    ['a wrapped one', new Error('render failed', { cause: named('ChunkLoadError', 'Failed to load chunk x from module 1') })],
  ])('recognises %s', (_, error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it.each([
    ['another error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a message that only mentions a chunk further on', new Error('Render failed: Failed to load chunk x from module 1')],
    ['a string', 'Failed to load chunk /_next/static/chunks/a.js from module 1'],
    ['null', null],
    ['undefined', undefined],
    ['an object without a message', { code: 1 }],
    ['a chunk error two causes deep', new Error('a', { cause: new Error('b', { cause: named('ChunkLoadError', 'x') }) })],
  ])('ignores %s', (_, error) => {
    expect(isChunkLoadError(error)).toBe(false);
  });
});

describe('isChunkResourceFailure', () => {
  it.each([
    [{ tagName: 'SCRIPT', src: '/_next/static/chunks/a.js' }, true],
    [{ tagName: 'SCRIPT', src: 'https://site.example/_next/static/chunks/a.js?dpl=x' }, true],
    [{ tagName: 'SCRIPT', src: 'https://cdn.example/_next/static/chunks/a.js' }, true],
    [{ tagName: 'LINK', rel: 'stylesheet', href: '/_next/static/css/a.css' }, true],
    [{ tagName: 'LINK', rel: 'modulepreload', href: '/_next/static/chunks/a.js' }, true],
    [{ tagName: 'LINK', rel: 'preload', as: 'script', href: '/_next/static/chunks/a.js' }, true],
    [{ tagName: 'SCRIPT', src: 'https://cdn.example/analytics.js' }, false],
    [{ tagName: 'SCRIPT', src: 'https://cdn.example/lib/_next/static/a.js' }, false],
    [{ tagName: 'SCRIPT', src: '' }, false],
    [{ tagName: 'SCRIPT' }, false],
    [{ tagName: 'SCRIPT', src: 'http://[' }, false],
    [{ tagName: 'IMG', src: '/_next/static/media/a.png' }, false],
    [{ tagName: 'LINK', rel: 'preload', as: 'font', href: '/_next/static/media/a.woff2' }, false],
    [{ tagName: 'LINK', rel: 'icon', href: '/_next/static/media/favicon.ico' }, false],
    [{ tagName: 'LINK', rel: 'stylesheet', href: 'https://fonts.example/css' }, false],
    [{ tagName: 'LINK', rel: 'stylesheet' }, false],
    [{}, false],
    [null, false],
  ])('%j → %s', (target, expected) => {
    expect(isChunkResourceFailure(target)).toBe(expected);
  });
});
