import { describe, expect, it } from 'vitest';
import { isChunkLoadError, isChunkResourceFailure } from '@/freshness/chunk-errors';

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('isChunkLoadError', () => {
  it.each([
    ['Turbopack', named('ChunkLoadError', 'Failed to load chunk /_next/static/chunks/0abc.js from module 123: TypeError: Failed to fetch')],
    ['Turbopack, name lost', new Error('Failed to load chunk /_next/static/chunks/0abc.js from module 4')],
    ['webpack', new Error('Loading chunk 812 failed.\n(error: https://x/_next/static/chunks/812.js)')],
    ['webpack CSS', new Error('Loading CSS chunk app-layout failed.')],
    ['Chrome', new TypeError('Failed to fetch dynamically imported module: https://x/_next/static/chunks/a.js')],
    ['Firefox', new TypeError('error loading dynamically imported module: https://x/a.js')],
    ['Safari', new TypeError('Importing a module script failed.')],
    ['an error-like object', { name: 'ChunkLoadError', message: 'x' }],
    ['a wrapped one', new Error('render failed', { cause: named('ChunkLoadError', 'Failed to load chunk x') })],
  ])('recognises %s', (_, error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it.each([
    ['another error', new Error('Cannot read properties of undefined')],
    ['a message merely mentioning chunks', new Error('We failed to load chunk metadata? no: Failed to load chunk')],
    ['a string', 'Failed to load chunk x'],
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
    [{ tagName: 'SCRIPT', src: 'https://site.example/_next/static/chunks/a.js?dpl=x' }, true],
    [{ tagName: 'SCRIPT', src: '/_next/static/chunks/a.js' }, true],
    [{ tagName: 'LINK', rel: 'stylesheet', href: '/_next/static/chunks/a.css' }, true],
    [{ tagName: 'LINK', rel: 'preload', href: '/_next/static/chunks/a.js' }, true],
    [{ tagName: 'LINK', rel: 'modulepreload', href: '/_next/static/chunks/a.js' }, true],
    [{ tagName: 'SCRIPT', src: 'https://cdn.example/analytics.js' }, false],
    [{ tagName: 'SCRIPT', src: '' }, false],
    [{ tagName: 'IMG', src: '/_next/static/media/a.png' }, false],
    [{ tagName: 'LINK', rel: 'icon', href: '/_next/static/media/favicon.ico' }, false],
    [{ tagName: 'LINK', rel: 'stylesheet', href: '/styles.css' }, false],
    [null, false],
  ])('%j → %s', (target, expected) => {
    expect(isChunkResourceFailure(target)).toBe(expected);
  });
});
