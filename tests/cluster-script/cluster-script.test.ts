import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { clusterRunning } from '../../tools/cluster/bring-up.mjs';
import { installArgoRolloutsCrds } from '../../tools/cluster/custom-resources.mjs';
import { clusterImages } from '../../tools/cluster/images.mjs';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { clusterNodes, CONTAINERD_NAMESPACE, NETWORK, NODE_NAME, PATHS, PORTS, STATE_DIR } from '../../tools/cluster/layout.mjs';
import { clusterIpSets, workerNamespaces } from '../../tools/cluster/node-network.mjs';
import { componentName, NODE_COMPONENTS } from '../../tools/cluster/components.mjs';
import { isAlive, runningPid } from '../../tools/cluster/processes.mjs';
import { ensureBinaries } from '../../tools/cluster-binaries.mjs';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { PINS } from '../../tools/pins.mjs';
import { run } from '../../tools/lib/command.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { machineWithout } from '../support/disposable-root.mjs';
import { keepComponentLogs } from '../../tools/cluster/component-logs.mjs';

/** Runs `command` through bash in the repository, as a user would type it. */
async function shell(command: string): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  const { exitCode, stdout, stderr } = await run('bash', ['-c', command], { cwd: ROOT, check: false });
  return { code: exitCode, stdout, stderr };
}

const recordedPids = () =>
  existsSync(PATHS.pids) ? readdirSync(PATHS.pids).map((file) => Number(readFileSync(`${PATHS.pids}/${file}`, 'utf8').split(' ')[0])) : [];

/** Command lines of the processes that name `text` in theirs. */
function processesNaming(text: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return command.includes(text) ? [command] : [];
      } catch {
        return [];
      }
    });
}

/** `cluster:down`, with the components' logs kept first: it removes the folder holding them. */
function clusterDown() {
  keepComponentLogs('cluster-script');
  return shell('npm run --silent cluster:down');
}

/** Interface names in `ip -o link show` output (`12: veth1a2b@if3: <...>`). */
const interfaceNames = (output: string): string[] => [...output.matchAll(/^\d+: ([^:@\s]+)/gm)].map((match) => match[1] ?? '');

/** Names of the network interfaces on this machine. */
async function linkNames(): Promise<string[]> {
  return interfaceNames((await shell('ip -o link show')).stdout);
}

/** What a stopped cluster must not leave on the machine; `podLinks`: the pods' veths it had. */
async function leftovers(podLinks: string[] = []) {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((line) => line.includes(STATE_DIR));
  const chains = (await shell('iptables-save; ip6tables-save')).stdout.split('\n').filter((line) => /^:(KUBE|CNI|MERIDIAN)-/.test(line));
  const links = (await linkNames()).filter((name) => name === NETWORK.nodeBridge || name === NETWORK.podBridge || podLinks.includes(name));
  const processes = processesNaming(`${STATE_DIR}/`);
  const cgroups = readdirSync('/sys/fs/cgroup').flatMap((hierarchy) =>
    readdirSync(`/sys/fs/cgroup/${hierarchy}`)
      .filter((name) => name === 'kubepods' || name.startsWith(`${NODE_NAME}-`))
      .map((name) => `${hierarchy}/${name}`),
  );
  const namespaces = workerNamespaces();
  return { mounts, chains, ipSets: clusterIpSets(), links, processes, cgroups, namespaces, stateDir: existsSync(STATE_DIR) };
}

const NOTHING_LEFT = { mounts: [], chains: [], ipSets: [], links: [], processes: [], cgroups: [], namespaces: [], stateDir: false };

const sysctl = (key: string) => readFileSync(`/proc/sys/${key}`, 'utf8').trim();

// A cluster someone started before the tests is theirs; one the cluster suite started
// (it says so in MERIDIAN_TEST_CLUSTER) or none at all is these tests' to stop and start.
const foreignCluster = process.env.MERIDIAN_TEST_CLUSTER !== 'started' && (await clusterRunning());
if (foreignCluster) {
  if (process.env.CI === 'true')
    throw new Error('cluster-script tests: a cluster not started by the test suite is running; CI must start from none');
  console.warn(
    `\n!!! SKIPPING the cluster script tests: a cluster of yours is running from ${STATE_DIR}; stop it with npm run cluster:down to run them\n`,
  );
}

describe.skipIf(foreignCluster)('npm run cluster:up and cluster:down', () => {
  afterAll(async () => {
    await clusterDown();
  });

  test('on a machine missing one of its Debian packages, cluster:up installs it and prints only exports: eval sets KUBECONFIG and puts kubectl and helm on PATH', async () => {
    // The cluster is started from the host first: its components live in the host's mount
    // namespace, and cluster:up on the machine below installs the package and reuses them.
    const started = await shell('npm run --silent cluster:up');
    expect(started.code, started.stderr).toBe(0);
    // As on a fresh machine, a disposable root without the package (tests/support/disposable-root.mjs):
    // apt's output (and every other tool's) must stay off stdout.
    const machine = await machineWithout(['containernetworking-plugins']);
    try {
      const typed = (command: string) => machine.run('bash', ['-c', command], { cwd: ROOT });
      const up = await typed('npm run --silent cluster:up');
      expect(up.exitCode, up.stderr).toBe(0);
      expect(up.stderr).toContain('>>> installing Debian packages: containernetworking-plugins');
      expect(up.stdout).toMatch(/^export KUBECONFIG='[^'\n]+'\nexport PATH='[^'\n]+':"\$PATH"\n$/);
      const { exitCode, stdout, stderr } = await typed(
        `eval "$(npm run --silent cluster:up)" && kubectl get nodes -o name && helm list --all-namespaces --short && echo "$KUBECONFIG" && kubectl argo rollouts version --short`,
      );
      expect(exitCode, stderr).toBe(0);
      expect(stdout.trim().split('\n')).toEqual([
        'node/meridian-node',
        PATHS.adminKubeconfig,
        `kubectl-argo-rollouts: v${PINS['argo-rollouts'].version}+unknown`,
      ]);
      expect(await machine.installed('containernetworking-plugins')).toBe(true);
    } finally {
      await machine.close();
    }
    // Pods' packets to anything outside 198.18.0.0/15 are dropped before routing.
    expect((await shell('iptables -t raw -S MERIDIAN-POD-EGRESS')).stdout).toContain(
      '-A MERIDIAN-POD-EGRESS -s 198.18.64.0/18 ! -d 198.18.0.0/15 -j DROP',
    );
  });

  test("kubectl argo rollouts reads the cluster's Rollouts once the CRDs from Argo Rollouts' pinned source are applied", async () => {
    await installArgoRolloutsCrds();
    const { code, stdout } = await shell(
      'eval "$(npm run --silent cluster:up 2>/dev/null)" && kubectl argo rollouts list rollouts --all-namespaces 2>&1',
    );
    expect(code, stdout).toBe(0);
    expect(stdout.trim()).toBe('No resources found.');
  });

  test('the API server answers on loopback as well as on the node address', async () => {
    for (const server of [`https://127.0.0.1:${PORTS.apiServer}`, `https://${NETWORK.nodeAddress}:${PORTS.apiServer}`]) {
      const { code, stdout, stderr } = await shell(`eval "$(npm run --silent cluster:up)" && kubectl --server ${server} get --raw /readyz`);
      expect(code, stderr).toBe(0);
      expect(stdout.trim(), server).toBe('ok');
    }
  });

  test("the machine's connections to a Service address, one without a rule yet included, stay on the node's bridge from its address", async () => {
    // The route is chosen before kube-proxy's translation, whatever Service has the address, if any.
    const { stdout } = await shell(`ip -o route get ${NETWORK.serviceCidr.replace(/\.0\/24$/, '.254')}`);
    expect(stdout).toMatch(new RegExp(`dev ${NETWORK.nodeBridge} src ${NETWORK.nodeAddress.replaceAll('.', '\\.')}`));
  });

  test("cluster:image copies a local Docker image into the cluster's containerd", async () => {
    const image = 'docker.io/library/meridian:cluster-a';
    const binaries = ensureBinaries(() => {});
    await run(binaries.ctr ?? 'ctr', [
      '--address',
      PATHS.containerdSocket,
      '--namespace',
      CONTAINERD_NAMESPACE,
      'images',
      'remove',
      image,
    ]).catch(() => {});
    expect(await clusterImages(binaries)).not.toContain(image);
    const { code, stderr } = await shell('npm run --silent cluster:image -- meridian:cluster-a');
    expect(code, stderr).toBe(0);
    expect(stderr.trim()).toBe('cluster: imported meridian:cluster-a');
    expect(await clusterImages(binaries)).toContain(image);
  });

  test('cluster:up reuses the running cluster', async () => {
    const { code, stderr } = await shell('npm run --silent cluster:up');
    expect(code).toBe(0);
    expect(stderr).toContain('cluster: reusing the cluster running from');
  });

  test('cluster:image refuses no image as a usage error, and an image Docker does not have in one line', async () => {
    const none = await shell('npm run --silent cluster:image');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^cluster: image: name at least one local Docker image\n\nUsage: /);
    const missing = await shell('npm run --silent cluster:image -- meridian:no-such-build');
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^cluster: importing meridian:no-such-build failed \(docker save exited [1-9]/);
  });

  test('state left by a killed run is cleaned up, said so, and a fresh cluster starts', async () => {
    keepComponentLogs('cluster-script');
    for (const pid of recordedPids()) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    const { code, stdout, stderr } = await shell('eval "$(npm run --silent cluster:up)" && kubectl get nodes -o name');
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('cleaning it up first');
    expect(stderr).toMatch(/cluster: ready in \d+ s/);
    expect(stdout.trim()).toBe('node/meridian-node');
  });

  test('cluster:down removes its processes, mounts, iptables chains, ip sets, interfaces and state; a second run is harmless', async () => {
    const pids = recordedPids();
    expect(pids.length).toBeGreaterThan(0);
    // A NetworkPolicy, so kube-router has sets and chains of its own to leave behind.
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny', namespace: 'default' },
      spec: { podSelector: {} },
    };
    const applied = await shell(`eval "$(npm run --silent cluster:up)" && echo '${JSON.stringify(policy)}' | kubectl apply -f -`);
    expect(applied.code, applied.stderr).toBe(0);
    await waitFor('kube-router to make its ip sets', () => expect(clusterIpSets().length).toBeGreaterThan(0), { timeoutMs: 30_000 });
    // CoreDNS runs, so the pods' bridge has at least one veth to remove.
    const podLinks = interfaceNames((await shell(`ip -o link show master ${NETWORK.podBridge}`)).stdout);
    expect(podLinks.length).toBeGreaterThan(0);
    const before = JSON.parse(readFileSync(PATHS.savedSysctls, 'utf8')) as Record<string, string>;
    expect(sysctl('net/ipv4/conf/all/route_localnet')).toBe('1');
    expect(sysctl('net/ipv6/conf/default/addr_gen_mode')).toBe('1');
    expect(Object.keys(before)).toContain('net/ipv6/conf/default/addr_gen_mode');
    const first = await clusterDown();
    expect(first.code, first.stderr).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await leftovers(podLinks)).toEqual(NOTHING_LEFT);
    // Kernel settings as they were before cluster:up (route_localnet off again, the kubelet's panic settings undone, new interfaces' IPv6 addresses back).
    expect(Object.fromEntries(Object.keys(before).map((key) => [key, sysctl(key)]))).toEqual(before);
    const second = await clusterDown();
    expect(second.code).toBe(0);
    expect(second.stderr.trim()).toBe('cluster: nothing was running');
    const image = await shell('npm run --silent cluster:image -- meridian:cluster-a');
    expect(image.code).toBe(1);
    expect(image.stderr.trim()).toBe('cluster: no cluster is running; start one with `npm run cluster:up`');
  });

  test('a missing prerequisite stops cluster:up with one line naming it: not root, no Go', async () => {
    const notRoot = await shell('setpriv --reuid=65534 --regid=65534 --clear-groups node scripts/cluster.mjs up');
    expect(notRoot.code).toBe(1);
    expect(notRoot.stderr.trim()).toBe('cluster: must run as root (it creates a bridge, mounts, cgroups and iptables rules)');
    const withoutGo = (process.env.PATH ?? '')
      .split(':')
      .filter((dir) => !existsSync(path.join(dir, 'go')))
      .join(':');
    const noGo = await shell(`env PATH='${withoutGo}' node scripts/cluster.mjs up`);
    expect(noGo.code).toBe(1);
    expect(noGo.stderr.trim()).toMatch(/^cluster: Go is needed to build Kubernetes and Prometheus once per machine .*`go` was not found$/);
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  });

  test('a port already in use stops cluster:up with one line naming it, and leaves nothing behind', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(PORTS.etcdClient, '127.0.0.1', resolve));
    try {
      const { code, stdout, stderr } = await shell('npm run --silent cluster:up');
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^cluster: port ${PORTS.etcdClient} .* is already in use`));
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  });
});

/** What `from` (a pod) gets from `url` within 3 s: the status, or the error's code. */
async function fetchFrom(from: string, url: string): Promise<string> {
  const script = `fetch(${JSON.stringify(url)}, { redirect: 'manual', signal: AbortSignal.timeout(3000) }).then((r) => console.log(r.status), (e) => console.log(e.cause?.code ?? e.name))`;
  const { stdout } = await kubectl(['exec', from, '--', 'node', '-e', script]);
  return stdout.trim();
}

/** Every pod's answer from every pod's address, as `from -> to: outcome` lines. */
async function reachability(pods: { name: string; ip: string }[]): Promise<string[]> {
  const lines: string[] = [];
  for (const from of pods)
    for (const to of pods) lines.push(`${from.name} -> ${to.name}: ${await fetchFrom(from.name, `http://${to.ip}:3000/`)}`);
  return lines;
}

describe.skipIf(foreignCluster)('npm run cluster:up -- --nodes 3', () => {
  const nodes = clusterNodes(3);
  const pods = nodes.map((node) => ({ name: `web-${node.index}`, node }));

  afterAll(async () => {
    await clusterDown();
  });

  test('--nodes takes a whole number from 1 to 8, with up alone; anything else is a usage error that starts nothing', async () => {
    for (const command of [
      'up --nodes 0',
      'up --nodes 9',
      'up --nodes two',
      'up --nodes 1.5',
      "up --nodes ''",
      'up --nodes=-1',
      'down --nodes 3',
    ]) {
      const { code, stdout, stderr } = await shell(`node scripts/cluster.mjs ${command}`);
      expect(code, command).toBe(2);
      expect(stdout, command).toBe('');
      expect(stderr, command).toMatch(/^cluster: .*\n\nUsage: npm run cluster:up \[-- --nodes <n>\]/);
    }
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  });

  test('three nodes, each with its own name, address, zone and network namespace for its kubelet, runtime, kube-proxy and kube-router', async () => {
    const { code, stdout, stderr } = await shell('eval "$(npm run --silent cluster:up -- --nodes 3)" && kubectl get nodes -o json');
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('cluster: 3 nodes Ready');
    const listed = (JSON.parse(stdout) as { items: NodeObject[] }).items.map((node) => ({
      name: node.metadata.name,
      address: node.status.addresses.find((address) => address.type === 'InternalIP')?.address,
      zone: node.metadata.labels['topology.kubernetes.io/zone'],
      ready: node.status.conditions.find((condition) => condition.type === 'Ready')?.status,
    }));
    expect(listed).toEqual([
      { name: 'meridian-node', address: '198.18.0.1', zone: 'zone-a', ready: 'True' },
      { name: 'meridian-node-1', address: '198.18.0.2', zone: 'zone-b', ready: 'True' },
      { name: 'meridian-node-2', address: '198.18.0.3', zone: 'zone-a', ready: 'True' },
    ]);
    const namespaceOf = (pid: number | null) => (pid ? readlinkSync(`/proc/${pid}/ns/net`) : 'not running');
    const byNode = nodes.map(
      (node) => new Set(NODE_COMPONENTS.map((component) => namespaceOf(runningPid(componentName(component, node))))),
    );
    // One namespace per node, shared by its four components; the first node's is the machine's.
    expect(byNode.map((set) => set.size)).toEqual([1, 1, 1]);
    expect(new Set(byNode.flatMap((set) => [...set])).size).toBe(3);
    expect([...(byNode[0] ?? [])]).toEqual([readlinkSync('/proc/self/ns/net')]);
    expect(workerNamespaces()).toEqual(['mrdn-n1', 'mrdn-n2']);
  });

  test('cluster:up reuses the three nodes, and refuses to change their number in one line', async () => {
    const reused = await shell('npm run --silent cluster:up');
    expect(reused.code, reused.stderr).toBe(0);
    expect(reused.stderr).toContain('cluster: reusing the cluster running from');
    const resized = await shell('npm run --silent cluster:up -- --nodes 2');
    expect(resized.code).toBe(1);
    expect(resized.stdout).toBe('');
    expect(resized.stderr.trim()).toBe(
      `cluster: a cluster of 3 nodes runs from ${STATE_DIR}; stop it with \`npm run cluster:down\` to start one of 2`,
    );
  });

  test("cluster:image copies an image into every node's containerd", async () => {
    const { code, stderr } = await shell('npm run --silent cluster:image -- meridian:cluster-a');
    expect(code, stderr).toBe(0);
    const binaries = ensureBinaries(() => {});
    for (const node of nodes) expect(await clusterImages(binaries, node), node.name).toContain('docker.io/library/meridian:cluster-a');
  });

  test('pods on every node reach each other and Services by name; NetworkPolicy holds across nodes; every node answers on its NodePorts', async () => {
    for (const { name, node } of pods) {
      await kubectl([
        'run',
        name,
        '--image=meridian:cluster-a',
        '--image-pull-policy=Never',
        `--labels=app=web,node=${node.index}`,
        // Ready once the server answers, not once its process starts: on a busy machine a pod
        // Ready without a probe refused the first connection (ECONNREFUSED).
        '--override-type=strategic',
        `--overrides=${JSON.stringify({
          spec: {
            nodeName: node.name,
            containers: [{ name, readinessProbe: { httpGet: { path: '/readyz', port: 3000 }, periodSeconds: 1 } }],
          },
        })}`,
      ]);
    }
    await kubectl(['wait', '--for=condition=Ready', 'pod', ...pods.map(({ name }) => name), '--timeout=120s']);
    const placed = await Promise.all(
      pods.map(async ({ name }) => {
        const { stdout } = await kubectl(['get', 'pod', name, '-o', 'jsonpath={.status.podIP}']);
        return { name, ip: stdout.trim() };
      }),
    );
    // Each pod in its node's range: 198.18.64.0/24 on the first, 198.18.65.0/24 on the second...
    expect(placed.map(({ ip }) => ip.split('.').slice(0, 3).join('.'))).toEqual(
      nodes.map((node) => node.podCidr.split('.').slice(0, 3).join('.')),
    );
    expect(await reachability(placed)).toEqual(placed.flatMap((from) => placed.map((to) => `${from.name} -> ${to.name}: 200`)));

    // By name, through CoreDNS (on whichever node it runs) and kube-proxy, from every node.
    await kubectl(['expose', 'pod', 'web-2', '--port=80', '--target-port=3000', '--name=web-2']);
    await waitFor(
      "every node's kube-proxy to serve the new Service",
      async () => {
        const answers = await Promise.all(placed.map(({ name }) => fetchFrom(name, 'http://web-2.default.svc.cluster.local/')));
        expect(answers).toEqual(['200', '200', '200']);
      },
      { timeoutMs: 30_000, intervalMs: 1000 },
    );

    // The first and last nodes' pods admit only pods labelled access=granted: the middle one's.
    await kubectl(['label', 'pod', 'web-1', 'access=granted']);
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'granted-only', namespace: 'default' },
      spec: {
        podSelector: { matchExpressions: [{ key: 'node', operator: 'In', values: ['0', '2'] }] },
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ podSelector: { matchLabels: { access: 'granted' } } }] }],
      },
    };
    await kubectl(['apply', '-f', '-'], { input: JSON.stringify(policy) });
    const ip = (name: string) => placed.find((pod) => pod.name === name)?.ip;
    await waitFor(
      "every node's kube-router to enforce the policy",
      async () => {
        expect({
          granted: [await fetchFrom('web-1', `http://${ip('web-0')}:3000/`), await fetchFrom('web-1', `http://${ip('web-2')}:3000/`)],
          refused: [await fetchFrom('web-2', `http://${ip('web-0')}:3000/`), await fetchFrom('web-0', `http://${ip('web-2')}:3000/`)],
        }).toEqual({ granted: ['200', '200'], refused: ['ECONNREFUSED', 'ECONNREFUSED'] });
      },
      { timeoutMs: 60_000, intervalMs: 1000 },
    );

    // A NodePort answers on every node's address (and the first node's loopback), wherever its pod runs.
    await kubectl(['expose', 'pod', 'web-1', '--type=NodePort', '--port=80', '--target-port=3000', '--name=web-1-nodeport']);
    const { stdout: nodePort } = await kubectl(['get', 'service', 'web-1-nodeport', '-o', 'jsonpath={.spec.ports[0].nodePort}']);
    const addresses = ['127.0.0.1', ...nodes.map((node) => node.address)];
    const status = (address: string) =>
      fetch(`http://${address}:${nodePort.trim()}/`, { redirect: 'manual', signal: AbortSignal.timeout(5000) }).then(
        (response) => response.status,
        (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.name,
      );
    await waitFor(
      "every node's kube-proxy to open the NodePort",
      async () => expect(await Promise.all(addresses.map(status))).toEqual(addresses.map(() => 200)),
      { timeoutMs: 30_000, intervalMs: 1000 },
    );
  });

  test("cluster:down removes every node's processes, namespace, cgroups, interfaces and state", async () => {
    const pids = recordedPids();
    expect(pids.length).toBe(4 + 3 * NODE_COMPONENTS.length);
    const { code, stderr } = await clusterDown();
    expect(code, stderr).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  });
});

describe.skipIf(foreignCluster)('a node namespace left without its cluster', () => {
  afterAll(async () => {
    await clusterDown();
  });

  test('is cleaned up before cluster:up makes the nodes again, and said so', async () => {
    expect(await leftovers()).toEqual(NOTHING_LEFT);
    // As a crash, or a hand that removed the state folder, would leave it.
    await run('ip', ['netns', 'add', 'mrdn-n2']);
    const { code, stdout, stderr } = await shell('eval "$(npm run --silent cluster:up -- --nodes 3)" && kubectl get nodes -o name');
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('cleaning it up first');
    expect(stdout.trim().split('\n')).toEqual(['node/meridian-node', 'node/meridian-node-1', 'node/meridian-node-2']);
  });
});

interface NodeObject {
  metadata: { name: string; labels: Record<string, string> };
  status: { addresses: { type: string; address: string }[]; conditions: { type: string; status: string }[] };
}
