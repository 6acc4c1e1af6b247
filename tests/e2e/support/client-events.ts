/** How many `event`s browsers reported to the server whose metrics are at `metricsUrl`. */
export async function clientEvents(metricsUrl: string, event: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const match = new RegExp(`^meridian_client_events_total\\{event="${event}"\\} (\\d+)`, 'm').exec(text);
  return Number(match?.[1] ?? 0);
}
