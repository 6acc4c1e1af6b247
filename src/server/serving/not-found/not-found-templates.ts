import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { LOCALES, localizedPath, type Locale } from '@/shared/locales';
import type { NextHandler } from '@/server/serving/next/next-app';
import { compileNotFoundTemplate, TEMPLATE_MARKER, type NotFoundTemplate } from './not-found-template';

const RENDER_TIMEOUT_MS = 10_000;

function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(RENDER_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${RENDER_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

function listenPrivately(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Has Next render the not-found page once per locale, through a listener on a
 * private loopback port, and keeps it as a template. A locale whose page cannot
 * be made a template is logged and left to Next, which renders every 404 of it.
 */
export async function renderNotFoundTemplates(
  next: NextHandler,
  options: { publicPort: number; logger: Logger },
): Promise<Map<Locale, NotFoundTemplate>> {
  const server = createServer((req, res) => void next(req, res));
  const templates = new Map<Locale, NotFoundTemplate>();
  try {
    const port = await listenPrivately(server);
    // The host Next believes it serves, so the locale rewrites stay internal.
    const host = `localhost:${options.publicPort}`;
    for (const locale of LOCALES) {
      try {
        const { status, body } = await get(port, localizedPath(locale, `/${TEMPLATE_MARKER}`), host);
        if (status !== 404) throw new Error(`the not-found page answered ${status}`);
        templates.set(locale, compileNotFoundTemplate(body, locale));
      } catch (error) {
        options.logger.warn({ locale, err: error }, 'Not-found template unavailable; Next renders these 404 pages');
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return templates;
}
