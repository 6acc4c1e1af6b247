// The game day's Alertmanager configuration: helm/meridian/files/alertmanager.yaml, the file
// users load, with what the file itself asks to fill in: the job Prometheus gives Meridian's
// targets (here each release's `<fullname>-metrics`) and an integration for each receiver (a
// webhook to the game day's receiver, resolved notifications included). Its routes,
// severities, grouping and inhibit rules stay as written; only the timings shrink, as the
// alerts' `for` do, so that a notification and its resolution each come within seconds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../lib/app-server.mjs';

export const ALERTMANAGER_FILE = path.join(ROOT, 'helm', 'meridian', 'files', 'alertmanager.yaml');

/** The file's job matcher, which names the compose stack's job. */
const FILE_JOB_MATCHER = 'job="meridian"';

/** Seconds, not the file's 30 s and 5 min: one notification per release still, sooner. */
export const GAMEDAY_TIMINGS = { group_wait: '5s', group_interval: '5s' };

/**
 * @typedef {{ matchers?: string[], receiver?: string, group_by?: string[], group_wait?: string, group_interval?: string, repeat_interval?: string, routes?: Route[] }} Route
 * @typedef {{ route: Route, inhibit_rules: object[], receivers: { name: string, webhook_configs?: object[] }[] }} AlertmanagerConfig
 */

/** Escapes a string for a Prometheus regular expression. @param {string} text */
const regexQuote = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {{ jobs: string[], webhookUrl: string, file?: string }} options
 *   jobs: the scrape jobs of the releases; webhookUrl: the receiver, which gets
 *   `<webhookUrl>/<receiver name>` so a notification says which receiver it went to.
 * @returns {AlertmanagerConfig}
 */
export function gamedayAlertmanagerConfig({ jobs, webhookUrl, file = ALERTMANAGER_FILE }) {
  /** @type {AlertmanagerConfig} */
  const config = parse(readFileSync(file, 'utf8'));
  const jobMatcher = `job=~"${jobs.map(regexQuote).join('|')}"`;
  let matched = 0;
  /** @param {Route} route */
  const visit = (route) => {
    if (route.matchers?.includes(FILE_JOB_MATCHER)) {
      route.matchers = route.matchers.map((matcher) => (matcher === FILE_JOB_MATCHER ? jobMatcher : matcher));
      Object.assign(route, GAMEDAY_TIMINGS);
      matched += 1;
    }
    route.routes?.forEach(visit);
  };
  visit(config.route);
  if (matched !== 1) throw new Error(`gameday: ${path.relative(ROOT, file)} should route ${FILE_JOB_MATCHER} once; found ${matched}`);
  for (const receiver of config.receivers)
    receiver.webhook_configs = [{ url: `${webhookUrl}/${encodeURIComponent(receiver.name)}`, send_resolved: true }];
  return config;
}
