// How the game day tunes the chart's alerts, through its values only (prometheusRule.*):
// the rules Prometheus loads are the chart's rendered PrometheusRule, never a file of our
// own. A fault should fire its alert within a minute and, once removed, resolve within
// another, so `for` and the windows shrink and two thresholds drop to what a short fault
// under modest load can cross. Alerts no fault aims at keep the chart's defaults: their
// long `for` is what keeps a side effect of a fault (a starved pod's event-loop lag) from
// counting as noise before the fault is gone, as in production.

/** Share of the load generator's requests that ask for /ja (one of CLUSTER_TARGETS' five). */
export const JA_SHARE = 1 / 5;

/**
 * The availability objective that makes /ja failing alone burn the error budget at 12× the
 * allowed rate: past the slow pair's 6×, short of the fast pair's 14.4×. A release of a few
 * minutes has all its history inside the slow pair's windows (6 h and 30 min), so the alert
 * fires once the failing time has caught up with the good time before it (the history's
 * burn past 6×), and resolves once the good time after it has caught up again. A faster
 * burn would fire sooner but resolve later: the failing time while it fires, is diagnosed
 * and removed counts for more.
 */
export const AVAILABILITY_OBJECTIVE = Number((1 - JA_SHARE / 12).toFixed(4));

/**
 * The p99 the CPU-starved release crosses and a healthy one stays far below, in seconds:
 * above what a render that throws (fault 3) takes on a loaded machine.
 */
export const LATENCY_THRESHOLD_SECONDS = 0.5;

/**
 * The browsers' alerts within the window: the share of page views reporting a failure, and the
 * minimums of page views and of reports that one tab reloading every few seconds reaches (the
 * chart's defaults ask for what a site of real visitors has: 50 page views, 10 reports).
 */
export const CLIENT_FAILURE_SHARE = 0.5;
export const CLIENT_MINIMUMS = { minPageViews: 3, minReports: 3 };
/** The chunks fault's one tab gives up once: one blocked reload among its few page views. */
export const BLOCKED_MINIMUMS = { minPageViews: 1, minReports: 1 };

/** How far back the windowed alerts look, so how long after its fault each keeps firing. */
export const ALERT_WINDOW = '1m';

/**
 * prometheusRule.alerts entries the game day changes, each with annotations that state the
 * numbers it uses (the chart appends the release to every summary).
 * @type {Record<string, Record<string, unknown>>}
 */
const ALERTS = {
  MeridianErrorBudgetFastBurn: { for: '20s' },
  MeridianLatencyP99High: {
    for: '30s',
    threshold: LATENCY_THRESHOLD_SECONDS,
    window: ALERT_WINDOW,
    annotations: {
      summary: `Meridian's p99 request latency is {{ $value | humanizeDuration }}, above ${LATENCY_THRESHOLD_SECONDS * 1000} ms`,
      description: `In {{ $labels.namespace }}, job {{ $labels.job }}, one request in a hundred (5xx answers aside) took longer than ${LATENCY_THRESHOLD_SECONDS * 1000} ms over the last ${ALERT_WINDOW}, for 30 s (game day settings).`,
    },
  },
  MeridianServerLocaleLoadFailure: {
    window: ALERT_WINDOW,
    annotations: {
      description: `In {{ $labels.namespace }}, job {{ $labels.job }}, the server failed to load a {{ $labels.locale }} message file in the last ${ALERT_WINDOW} (game day settings): pages in that locale render with missing or fallback text.`,
    },
  },
  MeridianClientManifestFetchFailureBurst: {
    for: '10s',
    threshold: CLIENT_FAILURE_SHARE,
    window: ALERT_WINDOW,
    ...CLIENT_MINIMUMS,
    annotations: {
      description: `In {{ $labels.namespace }}, job {{ $labels.job }}, browsers reported failed fetches of the build manifest, page payloads or /builds/latest.json for more than ${CLIENT_FAILURE_SHARE * 100}% of the page views of the last ${ALERT_WINDOW} (at least ${CLIENT_MINIMUMS.minPageViews} page views, ${CLIENT_MINIMUMS.minReports} of them failing), for 10 s (game day settings).`,
    },
  },
  MeridianChunkReloadBlocked: {
    window: ALERT_WINDOW,
    ...BLOCKED_MINIMUMS,
    annotations: {
      description: `In {{ $labels.namespace }}, job {{ $labels.job }}, browsers hit a missing JavaScript chunk again after reloading for it in the last ${ALERT_WINDOW} (game day settings: one blocked page view is enough): pages and assets of different builds are being served together.`,
    },
  },
  MeridianRolloutStuck: {
    for: '30s',
    annotations: { summary: '{{ $value }} Meridian builds have been serving together for 30 seconds (game day settings)' },
  },
  // Well shorter than the target alert's, as in the defaults (2m against 5m): the page comes
  // first, and inhibits the target alert before it could be sent. The margin covers a
  // deleted pod's shutdown (its metrics still answer), during which the first crashing
  // pod's target is already down but the release is not.
  MeridianDown: { for: '20s' },
  MeridianTargetDown: { for: '1m' },
};

/**
 * The game day's prometheusRule values.
 * @param {{ runbookBaseUrl: string }} options
 */
export function gamedayRuleValues({ runbookBaseUrl }) {
  return {
    enabled: true,
    availabilityObjective: AVAILABILITY_OBJECTIVE,
    runbookBaseUrl,
    alerts: ALERTS,
  };
}
