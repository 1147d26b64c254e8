const { BigQuery } = require('@google-cloud/bigquery');
const { PassThroughClient } = require('google-auth-library');

const bigquery = new BigQuery({ projectId: 'test-project', apiEndpoint: process.env.BIGQUERY_URL, authClient: new PassThroughClient() });

test('queries the emulator', async () => {
  const [rows] = await bigquery.query('SELECT 1 + 1 AS two');
  expect(rows).toEqual([{ two: 2 }]);
  const [exists] = await bigquery.dataset('app').exists();
  expect(exists).toBe(true);
});
