import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfig } from '@/server/config';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';
import { ensureCompose } from '../../../tools/docker-engine.mjs';

// What the compose test cannot start (Grafana, the collector and Jaeger have no
// Debian package to stand in for their images) is checked here, on the files.

interface Service {
  image: string;
  profiles?: string[];
  volumes?: string[];
  tmpfs?: string[];
  read_only?: boolean;
  environment?: Record<string, string>;
  build?: { args: Record<string, string> };
}

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };
const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** The container path a service mounts `source` (relative to the repository) at. */
function mountTarget(name: string, source: string): string | undefined {
  const volume = service(name).volumes?.find((entry) => entry.startsWith(`./${source}:`));
  return volume?.split(':')[1];
}

async function resolvedConfig(env: Record<string, string> = {}) {
  const [command, ...prefix] = ensureCompose() as [string, ...string[]];
  const { stdout } = await run(command, [...prefix, '--file', 'docker-compose.yml', 'config'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return parse(stdout) as { services: Record<string, Service> };
}

describe('docker-compose.yml', () => {
  it('has the replicas trust exactly one hop, the balancer that appends to X-Forwarded-For', () => {
    // A service's YAML merge (`<<: *app`) is resolved by the parser: each replica has the anchor's environment.
    for (const replica of ['app-1', 'app-2']) {
      const setting = service(replica).environment?.TRUST_PROXY;
      expect(setting).toBe('1');
      expect(readConfig({ TRUST_PROXY: setting }).trustProxy).toBe(1);
    }
    expect(read('docker/haproxy/haproxy.cfg')).toMatch(/^\s*option forwardfor\s*$/m);
  });

  it('has the balancer overwrite X-Forwarded-Proto and X-Forwarded-Host, which the replicas believe from it', () => {
    const config = read('docker/haproxy/haproxy.cfg');
    expect(config).toMatch(/^\s*http-request set-header X-Forwarded-Proto http\s*$/m);
    expect(config).toMatch(/^\s*http-request set-header X-Forwarded-Host %\[req\.hdr\(host\)\]\s*$/m);
  });

  it('is valid for Compose, and passes MERIDIAN_OTLP_ENDPOINT to the replicas only when set', async () => {
    const plain = await resolvedConfig({ MERIDIAN_OTLP_ENDPOINT: '' });
    expect(plain.services['app-1']?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('');
    const traced = await resolvedConfig({ MERIDIAN_OTLP_ENDPOINT: 'http://jaeger:4318' });
    for (const replica of ['app-1', 'app-2']) {
      expect(traced.services[replica]?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://jaeger:4318');
    }
  });

  it('runs two replicas read-only, with tmpfs for /tmp and Next’s cache, built on the Dockerfile’s default base', async () => {
    const dockerfileDefault = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'))?.[1];
    const resolved = await resolvedConfig({ NODE_IMAGE: '' });
    for (const replica of ['app-1', 'app-2']) {
      const app = resolved.services[replica];
      expect(app?.read_only).toBe(true);
      expect(app?.tmpfs?.map((entry) => entry.split(':')[0])).toEqual(['/tmp', '/app/.next/cache']);
      expect(app?.build?.args.NODE_IMAGE).toBe(dockerfileDefault);
    }
  });

  it('mounts the Helm chart’s rules and dashboard where Prometheus and Grafana load them, and copies neither', () => {
    const rules = mountTarget('prometheus', 'helm/meridian/files/prometheus-rules.yaml');
    const prometheusConfig = parse(read('docker/prometheus/prometheus.yml')) as { rule_files: string[] };
    expect(prometheusConfig.rule_files.map((glob) => path.dirname(glob))).toContain(path.dirname(rules ?? '-'));

    const dashboard = mountTarget('grafana', 'helm/meridian/files/grafana-dashboard.json');
    const providers = parse(read('docker/grafana/provisioning/dashboards/meridian.yaml')) as { providers: { options: { path: string } }[] };
    expect(providers.providers.map((provider) => provider.options.path)).toContain(path.dirname(dashboard ?? '-'));
    expect(mountTarget('grafana', 'docker/grafana/provisioning')).toBe('/etc/grafana/provisioning');

    const copies = readdirSync(path.join(ROOT, 'docker'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
      .filter(
        (text) => text === read('helm/meridian/files/prometheus-rules.yaml') || text === read('helm/meridian/files/grafana-dashboard.json'),
      );
    expect(copies).toEqual([]);
  });

  it('gives Grafana the stack’s Prometheus, which the dashboard’s queries can use', () => {
    const { datasources } = parse(read('docker/grafana/provisioning/datasources/prometheus.yaml')) as {
      datasources: { type: string; uid: string; url: string }[];
    };
    const [source] = datasources;
    expect(source).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    expect(service('prometheus').image).toMatch(/^prom\/prometheus:/);

    type Reference = { type?: string; uid?: string };
    const dashboard = JSON.parse(read('helm/meridian/files/grafana-dashboard.json')) as {
      templating?: { list: { name: string; type: string }[] };
      panels: { datasource?: Reference; targets?: { expr: string; datasource?: Reference }[] }[];
    };
    const variables = (dashboard.templating?.list ?? [])
      .filter((variable) => variable.type === 'datasource')
      .map((variable) => `\${${variable.name}}`);
    const references = dashboard.panels.flatMap((panel) => [panel.datasource, ...(panel.targets ?? []).map((target) => target.datasource)]);
    expect(dashboard.panels.flatMap((panel) => panel.targets ?? []).length).toBeGreaterThan(0);
    for (const reference of references.filter((ref): ref is Reference => ref !== undefined)) {
      expect(reference.type).toBe('prometheus');
      expect([...variables, source?.uid]).toContain(reference.uid);
    }
  });

  it('keeps Jaeger v2 in the tracing profile, taking OTLP/HTTP on 4318 by the collector file the game day loads too', () => {
    expect(service('jaeger').profiles).toEqual(['tracing']);
    const target = mountTarget('jaeger', 'docker/otel/collector.yaml');
    expect((service('jaeger') as Service & { command?: string[] }).command).toEqual(['--config', target]);
    // The game day's Jaeger (tools/observability-engines.mjs) reads the very same file.
    expect(read('tools/observability-engines.mjs')).toContain("'docker', 'otel', 'collector.yaml'");

    const collector = parse(read('docker/otel/collector.yaml')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { trace_storage: string }>;
      extensions: { jaeger_query: { storage: { traces: string }; http: { endpoint: string } } };
      service: { extensions: string[]; pipelines: { traces: { receivers: string[]; exporters: string[] } } };
    };
    // Unset, each variable falls back to listening on every interface of the container.
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('${env:OTLP_HTTP_ENDPOINT:-0.0.0.0:4318}');
    expect(collector.extensions.jaeger_query.http.endpoint).toBe('${env:JAEGER_QUERY_HTTP_ENDPOINT:-0.0.0.0:16686}');
    const { traces } = collector.service.pipelines;
    expect(traces.receivers).toEqual(['otlp']);
    expect(collector.service.extensions).toEqual(['jaeger_storage', 'jaeger_query']);
    expect(traces.exporters.map((name) => collector.exporters[name]?.trace_storage)).toEqual([
      collector.extensions.jaeger_query.storage.traces,
    ]);
  });
});
