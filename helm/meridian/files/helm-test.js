// Run by the `helm test` pod with `node -e`: checks the site through its Service.
// SITE_URL is the Service's address; EXPECTED_BUILD_ID, when set, is the build the
// release should be serving (the image tag).
const site = process.env.SITE_URL;
const expected = process.env.EXPECTED_BUILD_ID;

async function get(path) {
  const response = await fetch(new URL(path, site), { signal: AbortSignal.timeout(10000) });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 200)}`);
  return body;
}

async function main() {
  await get('/readyz');
  console.log(`ok: ${site}/readyz answered 200`);
  const latest = JSON.parse(await get(`/builds/latest.json?t=${Date.now()}`));
  if (typeof latest.id !== 'string' || latest.id === '') throw new Error(`/builds/latest.json has no build id: ${JSON.stringify(latest)}`);
  if (expected && latest.id !== expected) throw new Error(`/builds/latest.json serves build ${latest.id}, expected ${expected}`);
  console.log(`ok: ${site}/builds/latest.json serves build ${latest.id}`);
}

main().catch((error) => {
  console.error(`helm test failed: ${error.message}`);
  process.exit(1);
});
