import { describe, expect, it } from 'vitest';
import type { TableMeta } from '../catalog/store.js';
import { INSERT_ID_WINDOW_MS } from '../config/timeouts.js';
import { duplicateInsertIds, rememberInsertIds } from './insert-ids.js';

describe('insertId de-duplication window', () => {
  it('forgets an insertId once the window has passed', () => {
    const t = {} as TableMeta;
    rememberInsertIds(t, ['a', undefined, 'b'], 1_000);
    expect(duplicateInsertIds(t, ['a', 'b', 'c', undefined], 1_000 + INSERT_ID_WINDOW_MS - 1)).toEqual([true, true, false, false]);
    expect(duplicateInsertIds(t, ['a', 'b'], 1_000 + INSERT_ID_WINDOW_MS)).toEqual([false, false]);
  });
});
