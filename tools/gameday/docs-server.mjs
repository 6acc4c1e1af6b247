// The runbooks where the game day's alerts link to them: this checkout's docs/ served on
// loopback, so each notification's runbook_url opens the runbooks of the chart that raised it
// (prometheusRule.runbookBaseUrl is this server's address), and a link can be followed and
// checked for landing on its alert's section.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';

const DOCS = path.join(ROOT, 'docs');

/**
 * Serves `docs/*.md` of the repository at `http://127.0.0.1:<port>/docs/<file>`.
 * @param {number} port
 */
export async function startDocsServer(port) {
  const server = http.createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://docs');
    const match = /^\/docs\/([\w-]+\.md)$/.exec(pathname);
    const file = match?.[1] ? path.join(DOCS, match[1]) : null;
    const body = file ? await readFile(file).catch(() => null) : null;
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(body);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  return {
    /** What prometheusRule.runbookBaseUrl takes: the chart appends `docs/runbooks.md#<alert>`. */
    baseUrl: `http://127.0.0.1:${port}/`,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
