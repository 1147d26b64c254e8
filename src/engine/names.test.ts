import { describe, expect, it } from 'vitest';
import { resolveTablePath } from './names.js';

// Name forms of docs/ARCHITECTURE.md §1 (BigQuery: "Table path syntax" in the GoogleSQL lexical
// structure docs).
const d = { projectId: 'proj', defaultDataset: { projectId: 'dp', datasetId: 'dd' } };

describe('resolveTablePath', () => {
  it.each([
    [['t'], 'dp', 'dd', 't'],
    [['ds', 't'], 'dp', 'ds', 't'],
    [['p', 'ds', 't'], 'p', 'ds', 't'],
    [['p.ds.t'], 'p', 'ds', 't'],
    [['p.ds', 't'], 'p', 'ds', 't'],
    [['p', 'ds.t'], 'p', 'ds', 't'],
    [['my-proj', 'ds', 'T'], 'my-proj', 'ds', 'T'],
  ])('%j', (segs, p, ds, t) => {
    expect(resolveTablePath(segs, d)).toEqual({ projectId: p, datasetId: ds, tableId: t });
  });

  it('two-part names take the default project when no default dataset is set', () => {
    expect(resolveTablePath(['ds', 't'], { projectId: 'proj' })).toEqual({ projectId: 'proj', datasetId: 'ds', tableId: 't' });
  });

  it('a one-part name without a default dataset is invalidQuery', () => {
    expect(() => resolveTablePath(['t'], { projectId: 'proj' })).toThrow(/must be qualified with a dataset/);
  });

  it('keeps table names case-sensitive', () => {
    expect(resolveTablePath(['ds', 'MyTable'], { projectId: 'p' }).tableId).toBe('MyTable');
  });
});
