import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics, ShedReason } from '@/server/observability/metrics';
import type { Renderer } from '@/server/serving/hand-over-to-next';
import { answerPlainText } from '@/server/serving/plain-text';
import { createRenderGate } from './render-gate';
import { proxyToRenderer, rendererAgent } from './render-proxy';
import type { RendererProcess } from './renderer-process';

/** A shed render is worth trying again this many seconds later. */
export const SHED_RETRY_AFTER_SECONDS = 1;

function shed(req: IncomingMessage, res: ServerResponse, metrics: Metrics, reason: ShedReason): void {
  metrics.renderShed.inc({ reason });
  res.setHeader('Retry-After', String(SHED_RETRY_AFTER_SECONDS));
  answerPlainText(
    req,
    res,
    503,
    reason === 'queue_full' ? 'Service Unavailable: busy, try again shortly' : 'Service Unavailable: try again shortly',
  );
}

/**
 * The serving process's side of the renderer: at most `concurrency` renders at once and
 * `queue` waiting (src/server/rendering/render-gate.ts), each sent to the renderer's process
 * and its answer passed back; what is beyond the limits, or finds no renderer up, is shed.
 */
export function createRenderer(
  rendererProcess: RendererProcess,
  limits: { concurrency: number; queue: number },
  metrics: Metrics,
): Renderer {
  const agent = rendererAgent(limits.concurrency);
  const gate = createRenderGate(limits, (active, queued) => {
    metrics.rendersInFlight.set(active);
    metrics.rendersQueued.set(queued);
  });
  return {
    async render(req, res) {
      if (rendererProcess.port() === null) return shed(req, res, metrics, 'renderer_down');
      const turn = gate.enter();
      if (!turn) return shed(req, res, metrics, 'queue_full');
      // A visitor who leaves while queued gives the place up.
      const leave = () => turn.leave();
      res.once('close', leave);
      try {
        await turn.granted;
        if (res.destroyed) return;
        const port = rendererProcess.port();
        if (port === null || (await proxyToRenderer(req, res, port, agent)) === 'unreachable') shed(req, res, metrics, 'renderer_down');
      } finally {
        res.off('close', leave);
        turn.leave();
      }
    },
  };
}
