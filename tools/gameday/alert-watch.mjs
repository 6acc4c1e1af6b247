// What the game day sees of its alerts, every second, per release (its scrape job): which
// fire in Prometheus and since when; what Alertmanager holds, sends or inhibits (its API);
// and, with the game day's own receiver, every notification that reached it.

/**
 * @typedef {{ labels: Record<string, string>, annotations: Record<string, string>, status: { state: string, inhibitedBy: string[], silencedBy: string[] } }} ManagedAlert
 * @typedef {{ first: number, last: number }} Seen
 */

/** @param {Map<string, Map<string, Seen>>} map @param {string} job @param {string} alert @param {number} at */
function mark(map, job, alert, at) {
  const byAlert = map.get(job) ?? new Map();
  map.set(job, byAlert);
  const seen = byAlert.get(alert);
  if (seen) seen.last = at;
  else byAlert.set(alert, { first: at, last: at });
}

/**
 * Starts watching the alerts of `namespace`.
 * @param {{
 *   prometheus: import('./diagnosis.mjs').PrometheusApi,
 *   alertmanagerUrl: string,
 *   namespace: string,
 *   notifications?: import('./webhook-receiver.mjs').Notification[],
 *   intervalMs?: number,
 *   log?: (line: string) => void,
 * }} options
 */
export function watchAlerts({ prometheus, alertmanagerUrl, namespace, notifications, intervalMs = 1000, log = () => {} }) {
  /** Alerts firing in Prometheus, by job. @type {Map<string, Map<string, Seen>>} */
  const firing = new Map();
  /** Alerts Alertmanager holds as active (to be sent), by job. @type {Map<string, Map<string, Seen>>} */
  const active = new Map();
  /** Alerts Alertmanager holds suppressed by an inhibit rule, by job. @type {Map<string, Map<string, Seen>>} */
  const inhibited = new Map();
  /** The alerts (`job/alertname`) firing in Prometheus or held by Alertmanager at the last poll, and when it began. */
  let lastPoll = { at: 0, live: new Set() };
  let stopped = false;

  async function poll() {
    const at = Date.now();
    const live = new Set();
    const samples = await prometheus.query(`ALERTS{alertstate="firing", namespace="${namespace}"}`);
    for (const { metric } of samples) {
      if (!metric.job || !metric.alertname) continue;
      mark(firing, metric.job, metric.alertname, at);
      live.add(`${metric.job}/${metric.alertname}`);
    }
    const response = await fetch(`${alertmanagerUrl.replace(/\/$/, '')}/api/v2/alerts`);
    if (!response.ok) throw new Error(`Alertmanager's API answered ${response.status}`);
    /** @type {ManagedAlert[]} */
    const managed = await response.json();
    for (const alert of managed) {
      const { job, alertname } = alert.labels;
      if (alert.labels.namespace !== namespace || !job || !alertname) continue;
      live.add(`${job}/${alertname}`);
      if (alert.status.state === 'active') mark(active, job, alertname, at);
      if (alert.status.inhibitedBy.length) mark(inhibited, job, alertname, at);
    }
    lastPoll = { at, live };
  }
  const loop = (async () => {
    while (!stopped) {
      await poll().catch((error) => log(`gameday: watching alerts: ${error instanceof Error ? error.message : error}`));
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();

  /** Notified alerts of `job` named `alert` with `status`, as received. @param {string} job @param {string} alert @param {string} status */
  const received = (job, alert, status) =>
    (notifications ?? []).flatMap((notification) =>
      notification.alerts
        .filter((each) => each.labels.job === job && each.labels.alertname === alert && each.status === status)
        .map((each) => ({ at: notification.at, receiver: notification.receiver, alert: each })),
    );

  return {
    /** @param {string} job @param {string} alert */
    firedAt: (job, alert) => firing.get(job)?.get(alert)?.first,
    /** Every alert of `job` that fired in Prometheus. @param {string} job */
    firingAlerts: (job) => [...(firing.get(job)?.keys() ?? [])].sort(),
    /** When each alert of `job` was first and last seen firing in Prometheus. @param {string} job */
    firingSeen: (job) => [...(firing.get(job)?.entries() ?? [])].map(([alert, seen]) => ({ alert, first: seen.first, last: seen.last })),
    /** Every alert of `job` Alertmanager held suppressed by an inhibit rule. @param {string} job */
    inhibitedAlerts: (job) => [...(inhibited.get(job)?.keys() ?? [])].sort(),
    /**
     * When `alert` of `job` was first notified as firing: received, with the game day's
     * receiver; else first held active (to be sent) by Alertmanager.
     * @param {string} job @param {string} alert
     */
    notifiedAt: (job, alert) => (notifications ? received(job, alert, 'firing')[0]?.at : active.get(job)?.get(alert)?.first),
    /**
     * Every notification of an alert of `job` the receiver got, in order: when, to which
     * receiver, which alert and whether firing or resolved.
     * @param {string} job
     */
    receivedFor: (job) =>
      (notifications ?? []).flatMap((notification) =>
        notification.alerts
          .filter((each) => each.labels.job === job)
          .map((each) => ({
            at: notification.at,
            receiver: notification.receiver,
            alert: each.labels.alertname ?? '',
            status: each.status,
          })),
      ),
    /** The first firing notification of `alert` of `job`, with its receiver. @param {string} job @param {string} alert */
    notification: (job, alert) => received(job, alert, 'firing')[0],
    /**
     * Every alert of `job` notified as firing (or, without a receiver, held active).
     * @param {string} job
     */
    notifiedAlerts: (job) =>
      notifications
        ? [
            ...new Set(
              notifications.flatMap((n) =>
                n.alerts.filter((a) => a.labels.job === job && a.status === 'firing').map((a) => a.labels.alertname ?? ''),
              ),
            ),
          ].sort()
        : [...(active.get(job)?.keys() ?? [])].sort(),
    /**
     * When `alert` of `job` was notified resolved after `since`: received, with the game
     * day's receiver; else when Alertmanager stopped holding it.
     * @param {string} job @param {string} alert @param {number} since
     */
    resolvedAt(job, alert, since) {
      if (notifications) return received(job, alert, 'resolved').find((each) => each.at >= since)?.at;
      const seen = active.get(job)?.get(alert);
      return seen && seen.last >= since && Date.now() - seen.last > 3 * intervalMs ? seen.last : undefined;
    },
    /**
     * Whether `alert` of `job` is gone (neither firing in Prometheus nor held by Alertmanager,
     * resolved alerts aside) as of a poll begun after `since`; undefined until such a poll.
     * @param {string} job @param {string} alert @param {number} since
     */
    goneSince(job, alert, since) {
      return lastPoll.at > since ? !lastPoll.live.has(`${job}/${alert}`) : undefined;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
