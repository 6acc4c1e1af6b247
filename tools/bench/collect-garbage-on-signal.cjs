// Preloaded into the servers of the memory benchmark only (node --expose-gc
// --require): SIGUSR2 runs a full garbage collection, so resident memory can be
// read without the garbage V8 has not collected yet. The server's code is unchanged.
const { gc } = globalThis;
if (!gc) throw new Error('collect-garbage-on-signal.cjs: run node with --expose-gc');
process.on('SIGUSR2', () => gc());
