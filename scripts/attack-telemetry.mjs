// `npm run attack:telemetry -- --target <url>`: the browser-signal attacks of docs/security.md
// against a Meridian site (your staging one), bounded in time and rate. Prints what the site
// answered each kind of forgery and, given its metrics port, what its counters did.
import { parseArgs } from 'node:util';
import { failingPageLoads, forgeBeacons, loopbackSources, replayTokens } from '../tools/telemetry-attack/attacks.mjs';
import { loadPage } from '../tools/telemetry-attack/requests.mjs';
import { HELP, parseCommand, usageError } from '../tools/lib/cli.mjs';

const USAGE = `Usage: npm run attack:telemetry -- --target <url> [options]

  --target <url>     the site's published origin (http://127.0.0.1:3000, https://staging.example)
  --attack <name>    forge (beacons from anywhere but its pages), replay (harvested tokens sent again),
                     pages (clients loading real pages and reporting a failure with each one's token),
                     or all (default), one after the other
  --seconds <n>      how long each attack runs (default 30, at most 600)
  --rate <n>         beacons a second of forge and replay (default 50, at most 1000)
  --tokens <n>       tokens replay harvests (default 5)
  --sources <n>      clients of pages, each from its own loopback address (default 50; a target off
                     this machine gets one client, this machine's own address)
  --metrics <url>    the metrics endpoint of one pod (http://pod:9464/metrics), to show what it counted
  --help`;

const { values: options } = parseCommand('attack:telemetry', USAGE, () =>
  parseArgs({
    options: {
      target: { type: 'string' },
      attack: { type: 'string', default: 'all' },
      seconds: { type: 'string', default: '30' },
      rate: { type: 'string', default: '50' },
      tokens: { type: 'string', default: '5' },
      sources: { type: 'string', default: '50' },
      metrics: { type: 'string' },
      help: HELP,
    },
  }),
);

/** @param {string} message @returns {never} */
const usage = (message) => usageError('attack:telemetry', USAGE, message);

if (!options.target || !URL.canParse(options.target)) usage('--target must be the site’s URL');
/** @param {string} name @param {number} max */
const bounded = (name, max) => {
  const value = Number(options[/** @type {'seconds'} */ (name)]);
  if (!Number.isInteger(value) || value < 1 || value > max) usage(`--${name} must be a whole number from 1 to ${max}`);
  return value;
};
const attacks = options.attack === 'all' ? ['forge', 'replay', 'pages'] : [options.attack];
if (!attacks.every((name) => ['forge', 'replay', 'pages'].includes(name)))
  usage(`--attack ${options.attack} is none of forge, replay, pages, all`);
const target = new URL(/** @type {string} */ (options.target)).origin;
const durationMs = bounded('seconds', 600) * 1000;
const rate = bounded('rate', 1000);
const isLoopback = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(target).hostname);
const sources = isLoopback ? loopbackSources(bounded('sources', 250)) : [undefined];

/** The Meridian counters an attack is meant to move, or to be refused by. */
async function counters() {
  if (!options.metrics) return null;
  const response = await fetch(options.metrics).catch(() => null);
  if (!response?.ok) return null;
  const text = await response.text();
  const watched =
    /^(meridian_telemetry_rejected_total|meridian_client_failed_page_views_total|meridian_page_loads_total)(\{[^}]*\})? (\S+)$/gm;
  return new Map([...text.matchAll(watched)].map((match) => [`${match[1]}${match[2] ?? ''}`, Number(match[3])]));
}

if ((await loadPage(target)).status === 0) {
  console.error(`attack:telemetry: ${target} answers nothing: is it the site's address?`);
  process.exit(1);
}
const before = await counters();
for (const attack of attacks) {
  console.log(`\n${attack}: ${durationMs / 1000} s against ${target}`);
  const result =
    attack === 'forge'
      ? await forgeBeacons({ target, rate, durationMs })
      : attack === 'replay'
        ? await replayTokens({ target, rate, durationMs, tokens: bounded('tokens', 1000) })
        : await failingPageLoads({ target, durationMs, sources });
  console.log(JSON.stringify(result, null, 2));
}
const after = await counters();
if (before && after) {
  console.log('\nwhat the pod counted meanwhile:');
  for (const [series, value] of after) {
    const moved = value - (before.get(series) ?? 0);
    if (moved !== 0) console.log(`  ${series} +${moved}`);
  }
}
