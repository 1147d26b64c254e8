// mocha root hooks: the emulator starts before the first test and stops after the last.
import { startEmulator } from 'bqemu';

let emulator;
export const mochaHooks = {
  async beforeAll() {
    this.timeout(60_000);
    emulator = await startEmulator({ projectId: 'test-project', dataset: 'app' });
    process.env.BIGQUERY_URL = emulator.restUrl;
  },
  async afterAll() {
    await emulator?.stop();
  },
};
