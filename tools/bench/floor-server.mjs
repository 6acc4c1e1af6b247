// Serves a built Next app's prerendered `/` and its build assets from memory, brotli for
// browsers that accept it (as our entry serves Meridian): the bench's floor, run as
// `node tools/bench/floor-server.mjs <app dir> <port>`.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const [dir, port] = process.argv.slice(2);
if (!dir || !port) throw new Error('usage: floor-server.mjs <app dir> <port>');

/** @typedef {{ identity: Buffer, br: Buffer, type: string, cacheControl: string }} Served */

/**
 * @param {string} file
 * @param {string} type
 * @param {string} cacheControl
 * @returns {Served}
 */
function served(file, type, cacheControl) {
  const identity = readFileSync(file);
  const br = brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  return { identity, br, type, cacheControl };
}

const TYPES = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
/** @type {Map<string, Served>} */
const files = new Map([
  ['/', served(path.join(dir, '.next/server/app/index.html'), 'text/html; charset=utf-8', 'public, max-age=0, must-revalidate')],
]);
const staticDir = path.join(dir, '.next/static');
for (const entry of readdirSync(staticDir, { recursive: true, withFileTypes: true })) {
  const type = TYPES[/** @type {keyof typeof TYPES} */ (path.extname(entry.name))];
  if (!entry.isFile() || !type) continue;
  const file = path.join(entry.parentPath, entry.name);
  files.set(
    `/_next/static/${path.relative(staticDir, file).split(path.sep).join('/')}`,
    served(file, type, 'public, max-age=31536000, immutable'),
  );
}

http
  .createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://floor').pathname);
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const br = /\bbr\b/.test(request.headers['accept-encoding'] ?? '');
    const body = br ? file.br : file.identity;
    response.writeHead(200, {
      'Content-Type': file.type,
      'Cache-Control': file.cacheControl,
      Vary: 'Accept-Encoding',
      ...(br ? { 'Content-Encoding': 'br' } : {}),
      'Content-Length': body.length,
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  })
  .listen(Number(port), '127.0.0.1');
