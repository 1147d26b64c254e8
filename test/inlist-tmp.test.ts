import { it } from 'vitest';
import { startTestEmulator } from './helpers/emulator.js';
it('in list timing', async () => {
  const t = await startTestEmulator({ projectId: 'il' });
  try {
    const items = Array.from({ length: 90_000 }, (_, i) => `'v${i}'`).join(', ');
    const q = `SELECT x IN (${items}) AS b FROM (SELECT 'v5' AS x)`;
    for (let k = 0; k < 2; k++) {
      const t0 = performance.now();
      const [rows] = await t.bq.query({ query: q + (k ? ' ' : '') });
      console.log('len', q.length, 'ms', (performance.now() - t0).toFixed(0), JSON.stringify(rows));
    }
  } finally { await t.emu.close(); }
}, 120_000);
