import { createServer } from 'node:http';
import path from 'node:path';
import { ConfigError, readConfig } from './config';
import { servePrerendered } from './http/serve-prerendered';
import { varyOn } from './http/vary';
import { loadNextHandler } from './next-app';
import { loadPrerenderedPages } from './prerendered-pages';

/** The root's answer depends on the language cookie and Accept-Language (see src/i18n/routing.ts). */
const ROOT_VARY = ['Cookie', 'Accept-Language'];

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const dir = path.dirname(process.argv[1] ?? __filename);
  process.chdir(dir);
  const handle = await loadNextHandler({ dir, port: config.port });
  const pages = loadPrerenderedPages(dir);

  const server = createServer((req, res) => {
    if (servePrerendered(req, res, pages)) return;
    if (req.url === '/' || req.url?.startsWith('/?')) varyOn(res, ROOT_VARY);
    void handle(req, res);
  });
  server.listen(config.port, config.hostname, () => {
    process.stdout.write(`${JSON.stringify({ level: 30, msg: 'listening', port: config.port, pages: [...pages.keys()] })}\n`);
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
