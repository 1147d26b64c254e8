// node:test: the emulator starts in before() and stops in after() of the file's suite.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startEmulator } from 'bqemu';

let emulator;
let bigquery;
before(async () => {
  emulator = await startEmulator({ projectId: 'test-project', dataset: 'app' });
  bigquery = new BigQuery({ projectId: emulator.projectId, apiEndpoint: emulator.restUrl, authClient: new PassThroughClient() });
});
after(() => emulator?.stop());

test('queries the emulator', async () => {
  const [rows] = await bigquery.query('SELECT 1 + 1 AS two');
  assert.deepEqual(rows, [{ two: 2 }]);
  const [exists] = await bigquery.dataset('app').exists();
  assert.equal(exists, true);
});
