// The game day's receiver: an HTTP server on loopback standing in for PagerDuty and Slack,
// recording every notification Alertmanager's webhook integration sends (firing and
// resolved), with the receiver it was meant for and when it came.
import http from 'node:http';

/**
 * One alert of a webhook notification, as Alertmanager sends it.
 * @typedef {{ status: 'firing' | 'resolved', labels: Record<string, string>, annotations: Record<string, string>, startsAt: string, endsAt: string }} NotifiedAlert
 * @typedef {{ at: number, receiver: string, status: string, groupLabels: Record<string, string>, commonLabels: Record<string, string>, alerts: NotifiedAlert[] }} Notification
 */

/** Notifications are small; anything larger is not Alertmanager's. */
const MAX_BODY = 1024 * 1024;

/**
 * Starts the receiver on `127.0.0.1:<port>`; `notifications` grows as they come.
 * @param {number} port
 */
export async function startWebhookReceiver(port) {
  /** @type {Notification[]} */
  const notifications = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
      if (body.length > MAX_BODY) request.destroy();
    });
    request.on('end', () => {
      try {
        const message = JSON.parse(body);
        notifications.push({
          at: Date.now(),
          receiver: decodeURIComponent((request.url ?? '/').slice(1)),
          status: message.status,
          groupLabels: message.groupLabels ?? {},
          commonLabels: message.commonLabels ?? {},
          alerts: message.alerts ?? [],
        });
        response.end();
      } catch {
        response.statusCode = 400;
        response.end();
      }
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  return {
    url: `http://127.0.0.1:${port}`,
    notifications,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
