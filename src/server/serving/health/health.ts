import { access } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NAMESPACES } from '@/i18n/namespaces';
import { LOCALES } from '@/shared/locales';
import { answerPlainText } from '@/server/serving/plain-text';

export interface Readiness {
  /** Next's handler is loaded and prepared. */
  nextReady: boolean;
  /** A shutdown has begun: the load balancer must stop sending. */
  draining: boolean;
  /**
   * Which builds are live is known: always outside a canary release; during one, once the
   * stable Service has answered (until then builds/latest.json could only answer 503).
   */
  releaseKnown: boolean;
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

/** `GET /healthz`: the process serves. */
export function answerHealth(req: IncomingMessage, res: ServerResponse): void {
  answerPlainText(req, res, 200, 'ok');
}

/**
 * `GET /readyz`: Next is prepared, the locale files are readable, which builds are live is
 * known, and no shutdown has begun.
 */
export async function answerReadiness(req: IncomingMessage, res: ServerResponse, readiness: Readiness, dir: string): Promise<void> {
  if (readiness.draining) return answerPlainText(req, res, 503, 'draining');
  if (!readiness.nextReady) return answerPlainText(req, res, 503, 'starting');
  if (!readiness.releaseKnown) return answerPlainText(req, res, 503, 'live builds unknown');
  if (!(await localesReadable(dir))) return answerPlainText(req, res, 503, 'locale files unreadable');
  answerPlainText(req, res, 200, 'ready');
}
