import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/** `GET /metrics` on METRICS_PORT, and nothing else: this port is never behind the load balancer. */
export function createMetricsServer(registry: Registry): Server {
  return createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not Found\n');
      return;
    }
    registry
      .metrics()
      .then((body) => {
        res.setHeader('Content-Type', registry.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(body);
      })
      .catch(() => {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('metrics unavailable\n');
      });
  });
}
