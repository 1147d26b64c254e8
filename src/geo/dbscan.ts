/**
 * DBSCAN over geographies (geography_functions#st_clusterdbscan): two geographies are neighbours
 * when their ST_DISTANCE (measure.ts) is at most epsilon meters; a geography is a core value when
 * it has at least `minPts` neighbours counting itself. Clusters are numbered from 0 in the order
 * in which their first core value appears in the input; each cluster takes every core value
 * reachable through core values and the border values next to them (a border value next to two
 * clusters joins the first that reaches it). Empty and NULL geographies are noise (NULL).
 */
import * as m from './measure.js';
import { isEmpty, type Geo } from './model.js';

/** The cluster number of each input (null for noise), in input order. */
export function dbscan(items: (Geo | null)[], epsilon: number, minPts: number): (number | null)[] {
  const n = items.length;
  const live = items.map((g) => g !== null && !isEmpty(g));
  const near: number[][] = items.map(() => []);
  for (let i = 0; i < n; i++) {
    if (!live[i]) continue;
    near[i].push(i);
    for (let j = i + 1; j < n; j++) {
      if (!live[j]) continue;
      const d = m.distance(items[i]!, items[j]!);
      if (d !== null && d <= epsilon) near[i].push(j), near[j].push(i);
    }
  }
  const core = near.map((nb, i) => live[i] && nb.length >= minPts);
  const label: (number | null)[] = items.map(() => null);
  let next = 0;
  for (let i = 0; i < n; i++) {
    if (!core[i] || label[i] !== null) continue;
    const id = next++;
    label[i] = id;
    const queue = [...near[i]];
    while (queue.length) {
      const j = queue.shift()!;
      if (label[j] !== null) continue;
      label[j] = id;
      if (core[j]) queue.push(...near[j]);
    }
  }
  return label;
}
