// The cluster's binaries, built from the Go modules pinned in tools/kubernetes,
// tools/containerd and tools/prometheus (their go.mod and go.sum), once per machine:
// the cache folder is keyed by a hash of those pins, so a rebuild happens only when a
// pin moves.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/app-server.mjs';

/** Built binaries, kept per machine across clusters and keyed by the pinned versions. */
export const CACHE_DIR = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'meridian', 'kubernetes');

const KUBERNETES_MODULE = path.join(ROOT, 'tools', 'kubernetes');
const CONTAINERD_MODULE = path.join(ROOT, 'tools', 'containerd');
const PROMETHEUS_MODULE = path.join(ROOT, 'tools', 'prometheus');

export const BINARY_NAMES = [
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
  'etcd',
  'coredns',
  'pause',
  'containerd',
  'containerd-shim-runc-v2',
  'ctr',
  'prometheus',
];

/** The version a module's go.mod requires of `modulePath`. */
function requiredVersion(moduleDir, modulePath) {
  const goMod = readFileSync(path.join(moduleDir, 'go.mod'), 'utf8');
  const match = new RegExp(`^\\s*${modulePath.replaceAll('.', '\\.')} (v\\S+)`, 'm').exec(goMod);
  if (!match) throw new Error(`cluster: ${path.relative(ROOT, moduleDir)}/go.mod requires no ${modulePath}`);
  return match[1];
}

export const KUBERNETES_VERSION = requiredVersion(KUBERNETES_MODULE, 'k8s.io/kubernetes');
const CONTAINERD_VERSION = requiredVersion(CONTAINERD_MODULE, 'github.com/containerd/containerd/v2');
/** Prometheus 3 publishes its module as v0.3MM.P for release 3.MM.P. */
const PROMETHEUS_VERSION = requiredVersion(PROMETHEUS_MODULE, 'github.com/prometheus/prometheus').replace(
  /^v0\.3(\d\d)\./,
  (_, minor) => `3.${Number(minor)}.`,
);

function goVersion() {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      'cluster: Go is needed to build Kubernetes and Prometheus once per machine (1.26.7 or newer, the newest of tools/*/go.mod); `go` was not found',
    );
  }
  return result.stdout.trim();
}

/** Every file of a module that shapes what it builds. */
function* moduleFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* moduleFiles(full);
    else if (/\.(go|mod|sum)$/.test(entry.name)) yield full;
  }
}

/**
 * What is built from which module (relative to the repository), with which build tags.
 * Part of the cache key: changing a package or a tag rebuilds.
 */
const BUILDS = [
  {
    module: 'tools/kubernetes',
    packages: [
      ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy'].map(
        (name) => `k8s.io/kubernetes/cmd/${name}`,
      ),
      'github.com/coredns/coredns',
      './cmd/etcd',
      './cmd/pause',
    ],
    tags: [],
  },
  {
    module: 'tools/containerd',
    packages: ['containerd', 'ctr', 'containerd-shim-runc-v2'].map((name) => `github.com/containerd/containerd/v2/cmd/${name}`),
    // No btrfs or devmapper snapshotters: overlayfs only, and no C headers needed.
    tags: ['no_btrfs', 'no_devmapper'],
  },
  // Debian's Prometheus is built without Kubernetes service discovery; this one has it.
  { module: 'tools/prometheus', packages: ['github.com/prometheus/prometheus/cmd/prometheus'], tags: [] },
];

function pinHash(go) {
  const hash = createHash('sha256').update(go).update(ldflags().join(' ')).update(JSON.stringify(BUILDS));
  for (const { module } of BUILDS) {
    for (const file of moduleFiles(path.join(ROOT, module))) hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Stamps the release into the binaries, as Kubernetes' hack/lib/version.sh does; unstamped they say v0.0.0-master. */
function ldflags() {
  const [, major, minor] = /^v(\d+)\.(\d+)/.exec(KUBERNETES_VERSION) ?? [];
  const stamp = {
    gitVersion: KUBERNETES_VERSION,
    gitMajor: major,
    gitMinor: minor,
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
  };
  const kubernetes = ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) =>
    Object.entries(stamp).map(([name, value]) => `-X ${pkg}.${name}=${value}`),
  );
  return [
    '-s',
    '-w',
    ...kubernetes,
    `-X github.com/containerd/containerd/v2/version.Version=${CONTAINERD_VERSION}`,
    `-X github.com/prometheus/common/version.Version=${PROMETHEUS_VERSION}`,
  ];
}

function goBuild(moduleDir, outDir, packages, tags = []) {
  execFileSync(
    'go',
    [
      'build',
      '-trimpath',
      ...(tags.length ? ['-tags', tags.join(' ')] : []),
      '-ldflags',
      ldflags().join(' '),
      '-o',
      `${outDir}/`,
      ...packages,
    ],
    {
      cwd: moduleDir,
      stdio: ['ignore', 2, 2],
      // Static binaries; go.sum in the repository is the checksum authority (the public
      // checksum database is not reachable from these machines, the module proxy is).
      env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly', GOSUMDB: 'off' },
    },
  );
}

/** The folder holding every binary, built first if this machine has no build of the current pins. */
export function ensureBinaries(log) {
  const dir = path.join(CACHE_DIR, `${KUBERNETES_VERSION}-${pinHash(goVersion())}`);
  if (BINARY_NAMES.every((name) => existsSync(path.join(dir, name)))) return dir;
  log(
    `building Kubernetes ${KUBERNETES_VERSION}, etcd, CoreDNS, containerd ${CONTAINERD_VERSION} and Prometheus ${PROMETHEUS_VERSION} from their Go modules into ${dir} (once per machine; 20-40 minutes on 2 cores)`,
  );
  mkdirSync(CACHE_DIR, { recursive: true });
  // Built beside the target and renamed: a folder that exists is complete.
  const scratch = mkdtempSync(path.join(CACHE_DIR, 'building-'));
  try {
    for (const { module, packages, tags } of BUILDS) goBuild(path.join(ROOT, module), scratch, packages, tags);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  removeStaleBuilds(dir);
  return dir;
}

/** Folders holding the executable of a running process. */
function foldersInUse() {
  const folders = new Set();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      folders.add(path.dirname(readlinkSync(`/proc/${pid}/exe`)));
    } catch {
      // Gone, or a kernel thread.
    }
  }
  return folders;
}

/** Builds of earlier pins (about 700 MB each), unless a cluster still runs from one. */
function removeStaleBuilds(current) {
  const inUse = foldersInUse();
  for (const entry of readdirSync(CACHE_DIR)) {
    const folder = path.join(CACHE_DIR, entry);
    if (folder !== current && entry.startsWith('v') && !inUse.has(folder)) rmSync(folder, { recursive: true, force: true });
  }
}
