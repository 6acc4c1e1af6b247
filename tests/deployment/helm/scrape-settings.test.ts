import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { describe, expect, it } from 'vitest';
import { find, render, renderError } from '../support/chart';

const endpointOf = (serviceMonitor: Record<string, unknown>) =>
  (find(render({ serviceMonitor: { enabled: true, ...serviceMonitor } }), 'ServiceMonitor') as unknown as IServiceMonitor).spec
    .endpoints[0];

describe('the ServiceMonitor’s interval and scrape timeout', () => {
  it.each([
    ['30s', '10s'],
    ['1m30s', '1m29s'],
    ['1m', '60s'],
    ['2h', '1h59m59s999ms'],
  ])('accepts interval %s with timeout %s (not longer)', (interval, scrapeTimeout) => {
    expect(endpointOf({ interval, scrapeTimeout })).toMatchObject({ interval, scrapeTimeout });
  });

  it.each([
    ['15s', '20s'],
    ['1m', '1m1s'],
    ['1m30s', '91s'],
    ['500ms', '1s'],
  ])('refuses interval %s with timeout %s, which Prometheus would refuse', (interval, scrapeTimeout) => {
    expect(renderError({ serviceMonitor: { enabled: true, interval, scrapeTimeout } })).toContain(
      `serviceMonitor.scrapeTimeout=${scrapeTimeout} must be at most serviceMonitor.interval=${interval}`,
    );
  });

  it('refuses an interval of 0', () => {
    expect(renderError({ serviceMonitor: { enabled: true, interval: '0s', scrapeTimeout: '0s' } })).toContain(
      'serviceMonitor.interval=0s must be longer than 0',
    );
  });

  it.each(['30', '1s1m', '1m1m', '1.5m', '-10s', ''])('refuses %j, which is no Prometheus duration', (interval) => {
    expect(renderError({ serviceMonitor: { interval } })).toContain("at '/serviceMonitor/interval'");
  });
});
