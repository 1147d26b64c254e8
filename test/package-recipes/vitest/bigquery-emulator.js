// vitest globalSetup: one emulator for the whole run, its URL handed to the tests with provide().
import { startEmulator } from 'bqemu';

export default async function setup(project) {
  const emulator = await startEmulator({ projectId: 'test-project', dataset: 'app' });
  project.provide('bigqueryUrl', emulator.restUrl);
  return () => emulator.stop();
}
