import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import { CLUSTER_BUILDS } from '../../../tools/cluster/app-images.mjs';

/**
 * Run inside a pod with `node -e`: an HTTP GET, a TCP connect or a name lookup, printing
 * one line: `status <code>`, `connected`, `address <ip>`, or `error <code>` (a connection
 * refused by a policy, a timeout). Bounded at 4 s whatever happens.
 */
const PROBE = `
const [kind, target] = process.argv.slice(1);
const done = (line) => { console.log(line); process.exit(0); };
const fail = (error) => done('error ' + (error.cause?.code ?? error.code ?? error.name));
setTimeout(() => done('error timeout'), 4000);
if (kind === 'http') fetch(target, { signal: AbortSignal.timeout(3500) }).then((r) => done('status ' + r.status), fail);
if (kind === 'tcp') require('net').connect(Number(target.split(':')[1]), target.split(':')[0]).on('connect', () => done('connected')).on('error', fail);
if (kind === 'dns') require('dns').promises.lookup(target).then((a) => done('address ' + a.address), fail);
`;

/** Where a probe runs: a pod (and its container, for pods with more than one). */
export interface ProbeSite {
  namespace: string;
  pod: string;
  container?: string;
}

/** What one probe saw, from inside `site`. */
export async function probe(site: ProbeSite, kind: 'http' | 'tcp' | 'dns', target: string): Promise<string> {
  const container = site.container ? ['-c', site.container] : [];
  const { stdout } = await kubectl(['exec', '-n', site.namespace, site.pod, ...container, '--', 'node', '-e', PROBE, kind, target]);
  return stdout.trim();
}

/**
 * A pod's one process: answers `body` on each port and logs each request's method and
 * path, or (no ports) just stays up; exits at once on SIGTERM (node -e ignores it otherwise).
 */
const serve = (ports: Record<number, string>) => `
const http = require('http');
for (const [port, body] of Object.entries(${JSON.stringify(ports)})) {
  http.createServer((request, response) => {
    console.log(request.method + ' ' + request.url);
    request.resume();
    response.end(body);
  }).listen(Number(port));
}
setInterval(() => {}, 1 << 30);
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * A pod of the app's image running `node -e` (no other image is needed, or can be pulled,
 * here): idle, or answering 200 with a word on each of `ports`. Restricted-profile safe.
 */
export function probePod(namespace: string, name: string, ports: Record<number, string> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      terminationGracePeriodSeconds: 1,
      securityContext: { runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name,
          image: `meridian:${CLUSTER_BUILDS.a}`,
          imagePullPolicy: 'Never',
          command: ['node', '-e', serve(ports)],
          ports: Object.keys(ports).map((port) => ({ containerPort: Number(port) })),
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
  };
}

/** Applies `objects` (one List) and waits until every pod among them is Ready. */
export async function applyAndWait(objects: { kind: string; metadata: { name: string; namespace?: string } }[]) {
  await kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }) });
  for (const pod of objects.filter((object) => object.kind === 'Pod'))
    await kubectl([
      'wait',
      '--for=condition=Ready',
      '--timeout=120s',
      '-n',
      pod.metadata.namespace ?? 'default',
      `pod/${pod.metadata.name}`,
    ]);
}
