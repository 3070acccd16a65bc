/* global process */
// Preloaded (node --import) by tests/server/process-faults.test.ts: on SIGUSR2, which the test sends once the
// server answers, a promise is rejected with nobody to handle it (as a forgotten await would).
process.on('SIGUSR2', () => {
  void Promise.reject(new Error('preloaded rejection nobody handles'));
});
