import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { HeaderList } from '@/server/serving/header-list';
import type { ContentCoding } from '@/server/serving/negotiation/negotiation';

export interface Representation {
  body: Buffer;
  /** A strong tag per coding: RFC 9110 §8.8.3 gives each content-coded representation its own. */
  etag: string;
}

/** A file answered from memory: a build asset, a public file, a build or crawler file. */
export interface InMemoryFile {
  contentType: string;
  cacheControl: string;
  /** As an HTTP date. */
  lastModified: string;
  /** The codings it is kept in, in the server's order of preference; identity last. */
  codings: readonly ContentCoding[];
  representations: { identity: Representation } & Partial<Record<ContentCoding, Representation>>;
  /** Headers of its own, sent with every answer about it (200, 206 and 304). */
  headers: HeaderList;
}

/** Media types worth compressing: text, and formats that are text underneath. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|manifest\+json|xml)|image\/(?:svg\+xml|x-icon))/;

function brotli(body: Buffer): Buffer {
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/**
 * A file as it is served, made once at start-up: the content in each coding that
 * makes it smaller (gzip, and brotli unless the build wrote a copy), each with
 * its tag.
 */
export function createInMemoryFile(options: {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  lastModified: Date;
  /** The brotli copy the build wrote, if any. */
  brotli?: Buffer;
  headers?: HeaderList;
}): InMemoryFile {
  const { body } = options;
  const hash = createHash('sha1').update(body).digest('base64url');
  const representations: InMemoryFile['representations'] = { identity: { body, etag: `"${hash}"` } };
  const codings: ContentCoding[] = [];
  if (options.brotli || COMPRESSIBLE.test(options.contentType)) {
    const compressed: [ContentCoding, Buffer][] = [
      ['br', options.brotli ?? brotli(body)],
      ['gzip', gzipSync(body, { level: 9 })],
    ];
    for (const [coding, copy] of compressed) {
      if (copy.length >= body.length) continue;
      representations[coding] = { body: copy, etag: `"${hash}-${coding}"` };
      codings.push(coding);
    }
  }
  codings.push('identity');
  return {
    contentType: options.contentType,
    cacheControl: options.cacheControl,
    lastModified: options.lastModified.toUTCString(),
    codings,
    representations,
    headers: options.headers ?? [],
  };
}
