import { describe, expect, it } from 'vitest';
import { render, renderError } from '../support/chart';
import { appEnvironmentOf, podSpecOf, webContainerOf } from '../support/workload';

describe('probes', () => {
  const container = webContainerOf(render());

  it('checks readiness on /readyz, liveness and start-up on /healthz, on the http port', () => {
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
  });

  it('names the ports the app listens on: http 3000 and metrics 9464', () => {
    expect(container.ports).toEqual([
      { name: 'http', containerPort: 3000, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
  });

  it('gives start-up its own budget, longer than liveness would allow', () => {
    const budget = (probe: typeof container.startupProbe) => (probe?.periodSeconds ?? 0) * (probe?.failureThreshold ?? 0);

    expect(budget(container.startupProbe)).toBeGreaterThan(budget(container.livenessProbe));
  });
});

describe('shutdown and the grace period', () => {
  it('computes a grace period above SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS, and passes both to the app', () => {
    const objects = render();
    const environment = appEnvironmentOf(objects);
    const budgetSeconds = (Number(environment.SHUTDOWN_DELAY_MS) + Number(environment.SHUTDOWN_TIMEOUT_MS)) / 1000;

    expect(environment).toMatchObject({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '20000' });
    expect(podSpecOf(objects).terminationGracePeriodSeconds).toBe(30);
    expect(podSpecOf(objects).terminationGracePeriodSeconds).toBeGreaterThan(budgetSeconds);
  });

  it('follows the shutdown settings when they change', () => {
    const objects = render({ app: { shutdownDelayMs: 15000, shutdownTimeoutMs: 45500 } });

    // 60.5 s rounded up, plus 5 s for flushing logs and traces.
    expect(podSpecOf(objects).terminationGracePeriodSeconds).toBe(61 + 5);
  });

  it('keeps a grace period set by hand that exceeds the shutdown budget', () => {
    expect(podSpecOf(render({ terminationGracePeriodSeconds: 26 })).terminationGracePeriodSeconds).toBe(26);
  });

  it.each([25, 10])('refuses terminationGracePeriodSeconds=%i, not above the 25 s budget, with a clear message', (seconds) => {
    const message = renderError({ terminationGracePeriodSeconds: seconds });

    expect(message).toContain(
      `terminationGracePeriodSeconds=${seconds} must exceed (app.shutdownDelayMs + app.shutdownTimeoutMs) / 1000 = 25000 ms / 1000`,
    );
  });

  it('has no preStop hook: the server itself keeps serving through SHUTDOWN_DELAY_MS', () => {
    expect(webContainerOf(render()).lifecycle).toBeUndefined();
  });
});
