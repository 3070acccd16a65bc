/* global process, setTimeout */
// Preloaded (node --import) by tests/server/process-faults.test.ts: on SIGUSR2, which the test sends once the
// server answers, a timer callback throws (an exception no caller can catch).
process.on('SIGUSR2', () => {
  setTimeout(() => {
    throw new Error('preloaded boom');
  });
});
