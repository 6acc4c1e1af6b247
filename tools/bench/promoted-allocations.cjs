// Benchmark-only preload (node --require, never in production) for finding what grows the
// old generation under load: the first SIGUSR2 starts V8's sampling heap profiler keeping
// objects a full GC collects but dropping those a scavenge collects (so: what was promoted,
// plus what is still alive), the second writes the profile to PROMOTED_PROFILE_FILE
// (default promoted.heapprofile in the working directory), which Chromium's DevTools open
// (Memory, Load). docs/performance.md has what it found under mixed load.
const fs = require('node:fs');
const inspector = require('node:inspector');

const session = new inspector.Session();
session.connect();
let sampling = false;

process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 32 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
    return;
  }
  sampling = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) {
      process.stderr.write(`promoted-allocations: ${error.message}\n`);
      return;
    }
    fs.writeFileSync(process.env.PROMOTED_PROFILE_FILE || 'promoted.heapprofile', JSON.stringify(result.profile));
  });
});
