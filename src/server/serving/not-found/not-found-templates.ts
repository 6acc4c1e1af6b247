import { request } from 'node:http';
import type { Logger } from 'pino';
import { LOCALES, localizedPath, type Locale } from '@/shared/locales';
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

/**
 * Has Next render the not-found page once per locale, asking the renderer's private
 * loopback port (`rendererPort`, src/server/rendering/), and keeps it as a template. A
 * locale whose page cannot be made a template is logged and left to Next, which renders
 * every 404 of it.
 */
export async function renderNotFoundTemplates(
  rendererPort: number,
  options: { publicPort: number; logger: Logger },
): Promise<Map<Locale, NotFoundTemplate>> {
  const templates = new Map<Locale, NotFoundTemplate>();
  // The host Next believes it serves, so the locale rewrites stay internal.
  const host = `localhost:${options.publicPort}`;
  for (const locale of LOCALES) {
    try {
      const { status, body } = await get(rendererPort, localizedPath(locale, `/${TEMPLATE_MARKER}`), host);
      if (status !== 404) throw new Error(`the not-found page answered ${status}`);
      templates.set(locale, compileNotFoundTemplate(body, locale));
    } catch (error) {
      options.logger.warn({ locale, err: error }, 'Not-found template unavailable; Next renders these 404 pages');
    }
  }
  return templates;
}
