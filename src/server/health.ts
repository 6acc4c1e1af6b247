import { access } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { NAMESPACES } from '@/i18n/namespaces';
import { LOCALES } from '@/shared/locales';

export interface Readiness {
  /** Next's handler is loaded and prepared. */
  nextReady: boolean;
  /** A shutdown has begun: the load balancer must stop sending. */
  draining: boolean;
}

async function localesReadable(dir: string): Promise<boolean> {
  const files = LOCALES.flatMap((locale) => NAMESPACES.map((namespace) => path.join(dir, 'locales', locale, `${namespace}.json`)));
  try {
    await Promise.all(files.map((file) => access(file)));
    return true;
  } catch {
    return false;
  }
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${body}\n`);
}

/** `GET /healthz`: the process serves. */
export function answerHealth(res: ServerResponse): void {
  answer(res, 200, 'ok');
}

/** `GET /readyz`: Next is prepared, the locale files are readable, and no shutdown has begun. */
export async function answerReadiness(res: ServerResponse, readiness: Readiness, dir: string): Promise<void> {
  if (readiness.draining) return answer(res, 503, 'draining');
  if (!readiness.nextReady) return answer(res, 503, 'starting');
  if (!(await localesReadable(dir))) return answer(res, 503, 'locale files unreadable');
  answer(res, 200, 'ready');
}
