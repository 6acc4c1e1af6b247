// Installs the Debian packages the tests and benchmarks drive, when they are missing.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSync } from './lib/command.mjs';
import { PINS } from './pins.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Chromium flags for this sandbox: no GPU, no network chatter of its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Every Debian package the suites, benches and commands install when missing, and what drives
 * it: nothing else is installed on the host (the suite's last test checks the package set).
 * The pinned ones (runc, the CNI plugins) are in tools/pins.mjs.
 */
export const DEBIAN_PACKAGES = {
  chromium: "the end-to-end tests, the rollout demo and the bench: the visitors' browser",
  'fonts-noto-cjk': 'Chromium: the zh-CN and ja pages as visitors see them',
  prometheus: 'promtool, and the Prometheus of the integration and rollout tests',
  haproxy: 'the load balancer of the integration and rollout tests and the rollout demo',
  wrk: 'the load generator of the bench',
  'docker.io': 'the Docker engine of the deployment and cluster tests',
  'docker-compose': 'the compose stack, where no Compose v2 plugin is installed',
  debootstrap: 'the local Node base image (tools/node-base.mjs)',
  iptables: "the local cluster's node network and kube-proxy",
  ipset: "the local cluster's network policies (kube-router)",
  openssl: "the local cluster's PKI",
  unzip: 'helm and kubectl, unpacked from their npm package',
  'python3-yaml': "PyYAML, the YAML 1.1 loader of the field's chart scanners (Checkov): the chart's renders must load in it",
};

/** The names of the packages that may be installed: DEBIAN_PACKAGES and the pinned ones. */
export function installablePackages() {
  const pinned = Object.values(PINS).flatMap((pin) => ('debian' in pin.from ? [pin.from.debian.name] : []));
  return [...Object.keys(DEBIAN_PACKAGES), ...pinned];
}

/** @param {string} name */
function packageInstalled(name) {
  return runSync('dpkg-query', ['-W', '-f=${Status}', name], { check: false }).stdout.includes('install ok installed');
}

/**
 * The upstream part of an installed package's Debian version (`1.2.3` of `1.2.3+ds1-1+deb12u1`), or null.
 * @param {string} name
 */
export function upstreamVersion(name) {
  const { stdout, exitCode } = runSync('dpkg-query', ['-W', '-f=${Version}', name], { check: false });
  if (exitCode !== 0 || !stdout) return null;
  return stdout.replace(/^\d+:/, '').replace(/[-+~].*$/, '');
}

let aptUpdated = false;
const APT_LOCK = path.join(tmpdir(), 'meridian-apt.lock');

/**
 * apt-get, one at a time across the suites: vitest runs test files in parallel
 * processes, and a second apt-get fails at once on the package lists' lock. Its output
 * goes to stderr: stdout belongs to whoever reads ours (`eval "$(npm run --silent cluster:up)"`).
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
function aptGet(args, env) {
  runSync('flock', [APT_LOCK, 'apt-get', ...args], { env, echo: true });
}

/**
 * Installs the named Debian packages that are not installed yet; returns those it installed.
 * @param {string[]} packages names from DEBIAN_PACKAGES or pinned in tools/pins.mjs
 */
export function ensureDebianPackages(packages) {
  const unlisted = packages.filter((name) => !installablePackages().includes(name));
  if (unlisted.length)
    throw new Error(`debian-packages: ${unlisted.join(', ')} not listed in DEBIAN_PACKAGES; list it there, with what needs it`);
  const missing = packages.filter((name) => !packageInstalled(name));
  if (missing.length === 0) return [];
  process.stderr.write(`\n>>> installing Debian packages: ${missing.join(', ')}\n\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    aptGet(['update', '-qq'], env);
    aptUpdated = true;
  }
  aptGet(['install', '-y', '-qq', '--no-install-recommends', ...missing], env);
  return missing;
}

/**
 * Installs the Debian packages pinned in tools/pins.mjs when missing, and refuses, in one
 * line, an installed one whose upstream version is not the pinned one.
 * @param {import('./pins.mjs').Tool[]} tools
 */
export function ensurePinnedDebianPackages(tools) {
  const pins = tools.map((tool) => {
    const pin = PINS[tool];
    if (!('debian' in pin.from)) throw new Error(`debian-packages: ${tool} is not a Debian package`);
    return { package: pin.from.debian.name, version: pin.version };
  });
  ensureDebianPackages(pins.map((pin) => pin.package));
  for (const pin of pins) {
    const installed = upstreamVersion(pin.package);
    if (installed !== pin.version)
      throw new Error(
        `debian-packages: ${pin.package} ${installed} is installed, tools/pins.mjs pins ${pin.version}; install that version or move the pin after checking the new one`,
      );
  }
}

/** Chromium with real CJK fonts, so screenshots and axe see what visitors see. */
export function ensureBrowser() {
  ensureDebianPackages(['chromium', 'fonts-noto-cjk']);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`debian-packages: ${CHROMIUM_PATH} is still missing after installing chromium`);
}
