// Serves pages and folders of files from memory, brotli for browsers that accept it (as our
// entry serves Meridian): the bench's floor and static twin, each a process of its own
// (tools/bench/static-site.mjs starts them), run as `node tools/bench/static-server.mjs
// <port> <site>`, where <site> is the JSON of { pages: { [path]: file }, folders: [{ prefix, dir, cacheControl }] }.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const [port, siteJson] = process.argv.slice(2);
if (!port || !siteJson) throw new Error('usage: static-server.mjs <port> <site JSON>');
/** @type {import('./static-site.mjs').StaticSite} */
const site = JSON.parse(siteJson);

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

const TYPES = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
/** @type {Map<string, Served>} */
const files = new Map(
  Object.entries(site.pages).map(([urlPath, file]) => [
    urlPath,
    served(file, 'text/html; charset=utf-8', 'public, max-age=0, must-revalidate'),
  ]),
);
for (const { prefix, dir, cacheControl } of site.folders) {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const type = TYPES[/** @type {keyof typeof TYPES} */ (path.extname(entry.name))];
    if (!entry.isFile() || !type) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(`${prefix}${path.relative(dir, file).split(path.sep).join('/')}`, served(file, type, cacheControl));
  }
}

http
  .createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://static').pathname);
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
