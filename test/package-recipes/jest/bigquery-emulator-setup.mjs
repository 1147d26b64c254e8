// jest globalSetup: the URL goes to the test workers through the environment, the emulator to
// globalTeardown through globalThis (both run in the same process).
import { startEmulator } from 'bqemu';

export default async function globalSetup() {
  const emulator = await startEmulator({ projectId: 'test-project', dataset: 'app' });
  process.env.BIGQUERY_URL = emulator.restUrl;
  globalThis.bigqueryEmulator = emulator;
}
