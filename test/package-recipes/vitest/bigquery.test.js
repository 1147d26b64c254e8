import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { expect, inject, test } from 'vitest';

const bigquery = new BigQuery({ projectId: 'test-project', apiEndpoint: inject('bigqueryUrl'), authClient: new PassThroughClient() });

test('queries the emulator', async () => {
  const [rows] = await bigquery.query('SELECT 1 + 1 AS two');
  expect(rows).toEqual([{ two: 2 }]);
  const [exists] = await bigquery.dataset('app').exists();
  expect(exists).toBe(true);
});
