import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startEmulator } from '/work/main/src/server/server.js';
const emu = await startEmulator({ port: 0, projectId: 'p' });
const bq = new BigQuery({ projectId: 'p', apiEndpoint: emu.url, authClient: new PassThroughClient() as never });
await bq.createDataset('d');
const qs = process.argv.slice(2);
for (const q of qs) {
  const t = performance.now();
  try { const [rows] = await bq.query(q); console.log(q.slice(0,80), '->', JSON.stringify(rows.slice(0,3)), rows.length, (performance.now()-t).toFixed(1),'ms'); }
  catch (e) { console.log(q.slice(0,80), 'ERR', (e as Error).message); }
}
await emu.close();
