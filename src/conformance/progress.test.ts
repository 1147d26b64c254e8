import { describe, expect, it } from 'vitest';
import { progressLine } from './progress.js';

describe('progressLine', () => {
  it('fills the bar in proportion', () => {
    expect(progressLine(0, 10, 0, 10)).toBe('[..........]  0/10   0%');
    expect(progressLine(5, 10, 0, 10)).toBe('[#####.....]  5/10  50%');
    expect(progressLine(10, 10, 2, 10)).toBe('[##########] 10/10 100%  2 failing');
  });
  it('handles an empty run', () => {
    expect(progressLine(0, 0, 0, 4)).toBe('[####] 0/0 100%');
  });
});
