// Preloaded into the servers of the memory benchmark only (node --expose-gc
// --require): SIGUSR2 runs a full garbage collection, so resident memory can be
// read without the garbage V8 has not collected yet. The server's code is unchanged.
process.on('SIGUSR2', () => globalThis.gc());
