// The tools built from Go modules (tools/<module>/go.mod and go.sum, at the versions of
// tools/pins.mjs), each once per machine into its own cache folder,
// `~/.cache/meridian/<tool>/<version>-<hash>`: the hash covers what shapes the binaries
// (the Go version, the link flags, the packages and tags, the module's files), so a
// build happens only when its pin moves, and moving one pin rebuilds only its tool.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/app-server.mjs';
import { runSync } from './lib/command.mjs';
import { cacheDir, moduleVersion, PINS } from './pins.mjs';

/** @typedef {import('./pins.mjs').Tool} Tool */

/**
 * The version our module's go.mod requires of the pin's Go module; refused when it is not
 * the pinned one, so go.mod and tools/pins.mjs move together.
 * @param {import('./pins.mjs').Pin} pin
 */
export function checkedModuleVersion(pin) {
  if (!('go' in pin.from)) throw new Error(`cluster: ${pin.name} is not built from a Go module`);
  const { dir, module } = pin.from.go;
  const goMod = readFileSync(path.join(ROOT, dir, 'go.mod'), 'utf8');
  const required = new RegExp(`^\\s*(?:require\\s+)?${module.replaceAll('.', '\\.')} (v\\S+)`, 'm').exec(goMod)?.[1];
  if (required !== moduleVersion(pin)) {
    throw new Error(
      `cluster: ${dir}/go.mod requires ${module} ${required ?? '(nothing)'}, but tools/pins.mjs pins ${moduleVersion(pin)}; move both together`,
    );
  }
  return required;
}

/** -X flags setting `variables` of `pkg`. @param {string} pkg @param {Record<string, string | undefined>} variables */
const stamp = (pkg, variables) => Object.entries(variables).map(([name, value]) => `-X ${pkg}.${name}=${value}`);

/** The release stamped into Kubernetes' binaries as its hack/lib/version.sh does; unstamped they say v0.0.0-master. */
function kubernetesStamp() {
  const version = checkedModuleVersion(PINS.kubernetes);
  const [, major, minor] = /^v(\d+)\.(\d+)/.exec(version) ?? [];
  const variables = { gitVersion: version, gitMajor: major, gitMinor: minor, gitTreeState: 'clean', buildDate: '1970-01-01T00:00:00Z' };
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => stamp(pkg, variables));
}

/** A page standing in for a web UI whose assets are not part of the Go module (built by the project's own release, with npm). */
const UI_PLACEHOLDER = (/** @type {string} */ what) =>
  `<!doctype html><title>${what}</title><p>${what}: this build is made from the Go module, which does not carry the web UI's assets. The API answers as usual.</p>\n`;

/**
 * @typedef {{ packages: string[], tags: string[], ldflags: () => string[], placeholders?: { module: string, files: Record<string, string> } }} Build
 * What each Go build makes, keyed by the pin whose cache folder holds it. Part of the cache key. `placeholders`: files a
 * package embeds (`go:embed`) that the module's zip lacks (web UI assets its release builds with npm).
 * @type {Partial<Record<Tool, Build>>}
 */
const BUILDS = {
  // Kubernetes' components, with etcd and CoreDNS from the same module graph, and our pod sandbox.
  kubernetes: {
    packages: [
      ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy'].map(
        (name) => `k8s.io/kubernetes/cmd/${name}`,
      ),
      'github.com/coredns/coredns',
      './cmd/etcd',
      './cmd/pause',
    ],
    tags: [],
    ldflags: kubernetesStamp,
  },
  containerd: {
    packages: ['containerd', 'ctr', 'containerd-shim-runc-v2'].map((name) => `github.com/containerd/containerd/v2/cmd/${name}`),
    // No btrfs or devmapper snapshotters: overlayfs only, and no C headers needed.
    tags: ['no_btrfs', 'no_devmapper'],
    ldflags: () => stamp('github.com/containerd/containerd/v2/version', { Version: checkedModuleVersion(PINS.containerd) }),
  },
  prometheus: {
    packages: ['github.com/prometheus/prometheus/cmd/prometheus'],
    tags: [],
    ldflags: () => {
      checkedModuleVersion(PINS.prometheus);
      return stamp('github.com/prometheus/common/version', { Version: PINS.prometheus.version });
    },
  },
  'kube-router': {
    packages: ['github.com/cloudnativelabs/kube-router/v2/cmd/kube-router'],
    tags: [],
    ldflags: () => stamp('github.com/cloudnativelabs/kube-router/v2/pkg/version', { Version: checkedModuleVersion(PINS['kube-router']) }),
  },
  'metrics-server': {
    packages: ['sigs.k8s.io/metrics-server/cmd/metrics-server'],
    tags: [],
    ldflags: () =>
      stamp('k8s.io/client-go/pkg/version', { gitVersion: checkedModuleVersion(PINS['metrics-server']), gitTreeState: 'clean' }),
  },
  'prometheus-adapter': {
    packages: ['sigs.k8s.io/prometheus-adapter/cmd/adapter'],
    tags: [],
    ldflags: () =>
      stamp('k8s.io/client-go/pkg/version', { gitVersion: checkedModuleVersion(PINS['prometheus-adapter']), gitTreeState: 'clean' }),
  },
  alertmanager: {
    packages: ['alertmanager', 'amtool'].map((name) => `github.com/prometheus/alertmanager/cmd/${name}`),
    tags: [],
    ldflags: () => {
      checkedModuleVersion(PINS.alertmanager);
      return stamp('github.com/prometheus/common/version', { Version: PINS.alertmanager.version });
    },
    placeholders: {
      module: 'github.com/prometheus/alertmanager',
      files: {
        'ui/app/dist/elm/index.html': UI_PLACEHOLDER('Alertmanager'),
        'ui/app/dist/mantine/index.html': UI_PLACEHOLDER('Alertmanager'),
      },
    },
  },
  jaeger: {
    packages: ['github.com/jaegertracing/jaeger/cmd/jaeger'],
    tags: [],
    ldflags: () => {
      checkedModuleVersion(PINS.jaeger);
      return stamp('github.com/jaegertracing/jaeger/internal/version', { latestVersion: `v${PINS.jaeger.version}` });
    },
  },
  vegeta: {
    packages: ['github.com/tsenart/vegeta/v12'],
    tags: [],
    ldflags: () => stamp('main', { Version: checkedModuleVersion(PINS.vegeta) }),
  },
  'argo-rollouts': {
    packages: ['rollouts-controller', 'kubectl-argo-rollouts'].map((name) => `github.com/argoproj/argo-rollouts/cmd/${name}`),
    tags: [],
    ldflags: () => {
      checkedModuleVersion(PINS['argo-rollouts']);
      return stamp('github.com/argoproj/argo-rollouts/utils/version', { version: PINS['argo-rollouts'].version, gitTreeState: 'clean' });
    },
    placeholders: {
      module: 'github.com/argoproj/argo-rollouts',
      files: { 'server/static/index.html': UI_PLACEHOLDER('Argo Rollouts dashboard') },
    },
  },
};

/**
 * The builds cluster:up makes sure of: what the cluster runs (the metrics engines included), the
 * tests' Prometheus, and Argo Rollouts (its plugin goes on the user's PATH).
 */
export const CLUSTER_TOOLS = /** @type {Tool[]} */ ([
  'kubernetes',
  'containerd',
  'prometheus',
  'kube-router',
  'metrics-server',
  'prometheus-adapter',
  'argo-rollouts',
]);

/**
 * The binary `go build -o <dir>/` writes for a package: its last path element, a major-version suffix aside.
 * @param {string} pkg
 */
export function binaryName(pkg) {
  const parts = pkg.split('/');
  const last = parts.at(-1) ?? pkg;
  return /^v\d+$/.test(last) && parts.length > 1 ? (parts.at(-2) ?? last) : last;
}

function goVersion() {
  const result = runSync('go', ['env', 'GOVERSION'], { check: false });
  if (result.exitCode !== 0) {
    throw new Error(
      'cluster: Go is needed to build Kubernetes and Prometheus once per machine (1.26.7 or newer, the newest of tools/*/go.mod); `go` was not found',
    );
  }
  return result.stdout.trim();
}

/**
 * Every file of a module that shapes what it builds.
 * @param {string} dir
 * @returns {Generator<string>}
 */
function* moduleFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* moduleFiles(full);
    else if (/\.(go|mod|sum|json)$/.test(entry.name)) yield full;
  }
}

/** @param {Tool} tool */
function moduleDir(tool) {
  const { from } = PINS[tool];
  if (!('go' in from)) throw new Error(`cluster: ${tool} is not built from a Go module`);
  return path.join(ROOT, from.go.dir);
}

/** @param {Tool} tool @param {Build} build @param {string} go */
function buildHash(tool, build, go) {
  const hash = createHash('sha256')
    .update(go)
    .update(JSON.stringify({ ...build, ldflags: build.ldflags() }));
  const dir = moduleDir(tool);
  for (const file of moduleFiles(dir)) hash.update(path.relative(dir, file)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

// Static binaries; go.sum in the repository is the checksum authority (the public
// checksum database is not reachable from these machines, the module proxy is).
const GO_ENV = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly', GOSUMDB: 'off' };

/**
 * For a build with placeholders: a copy of the module's downloaded source with the
 * placeholder files added, and `-modfile` arguments naming a copy of our go.mod that
 * replaces the module with it (Go refuses overlays of its module cache). The versions
 * built stay those of go.mod and go.sum. None for a build that needs none.
 * @param {string} dir @param {Build} build @param {string} work
 */
function placeholderArgs(dir, build, work) {
  if (!build.placeholders) return [];
  const { module, files } = build.placeholders;
  const download = runSync('go', ['mod', 'download', '-json', module], { cwd: dir, env: GO_ENV }).stdout;
  const copy = path.join(work, 'module');
  // The module cache's files are read-only; the copy takes the placeholders.
  runSync('cp', ['-R', JSON.parse(download).Dir, copy]);
  runSync('chmod', ['-R', 'u+w', copy]);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    writeFileSync(path.join(copy, file), content);
  }
  const goMod = path.join(work, 'go.mod');
  writeFileSync(goMod, `${readFileSync(path.join(dir, 'go.mod'), 'utf8')}\nreplace ${module} => ${copy}\n`);
  copyFileSync(path.join(dir, 'go.sum'), path.join(work, 'go.sum'));
  return ['-modfile', goMod];
}

/** @param {string} dir @param {string} outDir @param {Build} build */
function goBuild(dir, outDir, build) {
  const work = mkdtempSync(path.join(tmpdir(), 'meridian-go-build-'));
  try {
    runSync(
      'go',
      [
        'build',
        '-trimpath',
        ...(build.tags.length ? ['-tags', build.tags.join(' ')] : []),
        ...placeholderArgs(dir, build, work),
        '-ldflags',
        ['-s', '-w', ...build.ldflags()].join(' '),
        '-o',
        `${outDir}/`,
        ...build.packages,
      ],
      // Go's progress on stderr: stdout belongs to whoever reads ours (cluster:up's exports).
      { cwd: dir, echo: true, env: GO_ENV },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The folder holding one tool's binaries, built first if this machine has no build of its pin.
 * @param {Tool} tool
 * @param {(line: string) => void} log
 */
export function ensureBuild(tool, log) {
  const build = BUILDS[tool];
  if (!build) throw new Error(`cluster: nothing is built for ${tool}`);
  const dir = cacheDir(tool, buildHash(tool, build, goVersion()));
  const names = build.packages.map(binaryName);
  if (names.every((name) => existsSync(path.join(dir, name)))) return dir;
  log(`building ${PINS[tool].name} ${PINS[tool].version} from its Go module into ${dir} (once per machine)`);
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  // Built beside the target and renamed: a folder that exists is complete.
  const scratch = mkdtempSync(path.join(parent, 'building-'));
  try {
    goBuild(moduleDir(tool), scratch, build);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  removeStaleBuilds(dir);
  return dir;
}

/**
 * Every binary of `tools`, by name, each built first if missing.
 * @param {(line: string) => void} log
 * @param {Tool[]} [tools]
 * @returns {Record<string, string>}
 */
export function ensureBinaries(log, tools = CLUSTER_TOOLS) {
  /** @type {Record<string, string>} */
  const binaries = {};
  for (const tool of tools) {
    const dir = ensureBuild(tool, log);
    for (const pkg of BUILDS[tool]?.packages ?? []) binaries[binaryName(pkg)] = path.join(dir, binaryName(pkg));
  }
  return binaries;
}

/**
 * The path of the binary `name` among `binaries`; refused, naming it, when it was not built.
 * @param {Record<string, string>} binaries @param {string} name
 */
export function builtBinary(binaries, name) {
  const binary = binaries[name];
  if (!binary) throw new Error(`cluster: no ${name} among the built binaries`);
  return binary;
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

/** Builds of the tool's earlier pins (hundreds of MB each), unless a cluster still runs from one; builds under way are left alone. */
/** @param {string} current */
function removeStaleBuilds(current) {
  const parent = path.dirname(current);
  const inUse = foldersInUse();
  for (const entry of readdirSync(parent)) {
    const folder = path.join(parent, entry);
    if (folder !== current && !entry.startsWith('building-') && !inUse.has(folder)) rmSync(folder, { recursive: true, force: true });
  }
}
