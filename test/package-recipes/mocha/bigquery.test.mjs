import assert from 'node:assert/strict';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';

describe('bigquery', () => {
  it('queries the emulator', async () => {
    const bigquery = new BigQuery({ projectId: 'test-project', apiEndpoint: process.env.BIGQUERY_URL, authClient: new PassThroughClient() });
    const [rows] = await bigquery.query('SELECT 1 + 1 AS two');
    assert.deepEqual(rows, [{ two: 2 }]);
    const [exists] = await bigquery.dataset('app').exists();
    assert.equal(exists, true);
  });
});
