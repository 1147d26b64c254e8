/**
 * Project numbers. A Google Cloud project has an id (chosen by its owner) and a number (assigned by
 * Google, 12 digits in practice; https://cloud.google.com/resource-manager/docs/creating-managing-projects#identifying_projects).
 * Projects are implicit in the emulator, so each project id gets one stable number derived from
 * the id itself: the same on every run and every machine, different for different ids. It shows
 * as `numericId` in projects.list and in the project's BigQuery service account
 * (`bq-<number>@bigquery-encryption.iam.gserviceaccount.com`, projects.getServiceAccount).
 */
import { createHash } from 'node:crypto';

const LOW = 100_000_000_000n;
const SPAN = 900_000_000_000n;

/**
 * The emulator's number for `projectId`: a 12-digit decimal string (100000000000–999999999999),
 * the first 8 bytes of SHA-256 of the UTF-8 id reduced into that range. Pure; never throws.
 */
export function projectNumber(projectId: string): string {
  let n = numbers.get(projectId);
  if (n === undefined) {
    const h = createHash('sha256').update(projectId, 'utf8').digest();
    n = String(LOW + (h.readBigUInt64BE(0) % SPAN));
    if (numbers.size >= MEMO_SIZE) numbers.clear();
    numbers.set(projectId, n);
  }
  return n;
}

/** Numbers already computed (projects.list names every project on each call). */
const numbers = new Map<string, string>();
const MEMO_SIZE = 10_000;
