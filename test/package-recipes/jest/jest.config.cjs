module.exports = {
  globalSetup: './bigquery-emulator-setup.mjs',
  globalTeardown: './bigquery-emulator-teardown.mjs',
  testTimeout: 30_000,
};
