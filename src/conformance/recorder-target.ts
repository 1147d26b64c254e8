/**
 * How the recorder reaches the reference: real BigQuery or an `--endpoint` (conformance/README.md
 * "Recording").
 */
import { BigQuery } from '@google-cloud/bigquery';
import { GoogleAuth, PassThroughClient } from 'google-auth-library';
import { makeClient, type HeaderInjectingAuthClient } from './client.js';

/** How the recorder reaches the reference. */
export interface RecorderTarget {
  bq: BigQuery;
  /** Base URL REST setup paths are appended to. */
  restBase: string;
  project: string;
  /** Headers for a REST setup request. */
  authHeaders(url: string): Promise<Headers>;
  /** Set when identity headers (headers.json) can travel with the canonical query. */
  headerClient?: HeaderInjectingAuthClient;
  kind: 'bigquery' | 'endpoint';
  credentials: 'application-default' | 'none';
}

const BIGQUERY_SCOPES = ['https://www.googleapis.com/auth/bigquery', 'https://www.googleapis.com/auth/cloud-platform'];

/**
 * Build the client towards the reference (conformance/README.md "Recording"): real BigQuery with
 * the application-default credentials named by `GOOGLE_APPLICATION_CREDENTIALS`
 * (google-auth-library `GoogleAuth`), or an endpoint — with those credentials when set, else with
 * fake ones (a pass-through client that sends no Authorization header). Throws when neither an
 * endpoint nor credentials are given.
 */
export async function makeRecorderTarget(opts: { endpoint?: string; project?: string; env: Record<string, string | undefined> }): Promise<RecorderTarget> {
  const keyFile = opts.env.GOOGLE_APPLICATION_CREDENTIALS;
  if (keyFile) {
    const auth = new GoogleAuth({ keyFilename: keyFile, scopes: BIGQUERY_SCOPES });
    const project = opts.project ?? (await auth.getProjectId());
    const client = await auth.getClient();
    const bq = new BigQuery({ projectId: project, authClient: client, autoRetry: false, maxRetries: 0, ...(opts.endpoint ? { apiEndpoint: opts.endpoint } : {}) });
    return {
      bq,
      restBase: (opts.endpoint ?? 'https://bigquery.googleapis.com').replace(/\/+$/, ''),
      project,
      authHeaders: (url) => client.getRequestHeaders(url),
      kind: opts.endpoint ? 'endpoint' : 'bigquery',
      credentials: 'application-default',
    };
  }
  if (!opts.endpoint) {
    throw new Error('recording against BigQuery needs application-default credentials: set GOOGLE_APPLICATION_CREDENTIALS to a credentials file, or give --endpoint');
  }
  const project = opts.project ?? 'bqemu-conformance';
  const { bq, auth } = makeClient(opts.endpoint, project);
  const pass = new PassThroughClient();
  return {
    bq,
    restBase: opts.endpoint.replace(/\/+$/, ''),
    project,
    authHeaders: () => pass.getRequestHeaders(),
    headerClient: auth,
    kind: 'endpoint',
    credentials: 'none',
  };
}
