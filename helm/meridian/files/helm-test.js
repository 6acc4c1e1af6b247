// Run by the `helm test` pod with `node -e`: checks the site through its Service.
// SITE_URL is the Service's address; EXPECTED_BUILD_ID, when set, is the build the
// release should be serving (the image tag). With a canary release, CANARY_SITE_URL is
// the canary Service's: the new build must answer there, and the site must name it as
// its stable build or as the canary being judged (its pods may still be starting).
const site = process.env.SITE_URL;
const canarySite = process.env.CANARY_SITE_URL;
const expected = process.env.EXPECTED_BUILD_ID;

/**
 * How long the Service may give no answer at all: a NetworkPolicy engine lets a new pod's
 * packets through (to the DNS, past its peers' rules) only moments after the pod starts.
 */
const NETWORK_GRACE_MS = 30000;

async function get(path, base = site) {
  const started = Date.now();
  for (;;) {
    let response;
    try {
      response = await fetch(new URL(path, base), { signal: AbortSignal.timeout(10000) });
    } catch (error) {
      if (Date.now() - started > NETWORK_GRACE_MS) throw error;
      console.log(`waiting for the network: GET ${path}: ${error.cause?.code ?? error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 200)}`);
    return body;
  }
}

/** Tries `check` every 2 s until it passes; the pod's activeDeadlineSeconds bounds the wait. */
async function eventually(check) {
  for (;;) {
    try {
      return await check();
    } catch (error) {
      console.log(`waiting: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

async function main() {
  await get('/readyz');
  console.log(`ok: ${site}/readyz answered 200`);
  if (canarySite && expected) {
    await eventually(async () => {
      const current = JSON.parse(await get('/builds/current.json', canarySite));
      if (current.id !== expected) throw new Error(`the canary Service serves build ${current.id}, expected ${expected}`);
    });
    console.log(`ok: ${canarySite}/builds/current.json serves build ${expected}`);
  }
  const check = async () => {
    const body = JSON.parse(await get(`/builds/latest.json?t=${Date.now()}`));
    if (typeof body.id !== 'string' || body.id === '') throw new Error(`/builds/latest.json has no build id: ${JSON.stringify(body)}`);
    if (expected && body.id !== expected && !(canarySite && body.canary === expected)) {
      throw new Error(
        `/builds/latest.json serves build ${body.id}${body.canary ? ` and the canary ${body.canary}` : ''}, expected ${expected}`,
      );
    }
    return body;
  };
  // During a canary release the pods learn of the new build within seconds: the check may wait.
  const latest = canarySite ? await eventually(check) : await check();
  console.log(`ok: ${site}/builds/latest.json serves build ${latest.id}${latest.canary ? ` and the canary ${latest.canary}` : ''}`);
}

main().catch((error) => {
  console.error(`helm test failed: ${error.message}`);
  process.exit(1);
});
