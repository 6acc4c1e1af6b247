/** How many `event`s browsers reported to the server whose metrics are at `metricsUrl`, from pages of any build. */
export async function clientEvents(metricsUrl: string, event: string, pageBuild?: 'self' | 'other'): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const series = new RegExp(`^meridian_client_events_total\\{event="${event}",page_build="(\\w+)"\\} (\\d+)`, 'gm');
  let total = 0;
  for (const [, build, count] of text.matchAll(series)) if (!pageBuild || build === pageBuild) total += Number(count);
  return total;
}

/** How many failed fetches of a build file of `kind` (manifest, latest) browsers reported to the server at `metricsUrl`. */
export async function buildFileFailures(metricsUrl: string, kind: 'manifest' | 'latest'): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const series = new RegExp(`^meridian_manifest_fetch_failures_total\\{kind="${kind}",page_build="\\w+"\\} (\\d+)`, 'gm');
  let total = 0;
  for (const [, count] of text.matchAll(series)) total += Number(count);
  return total;
}
