import { VERSION } from '../version';

/** What the fetch pipeline may do; the app's Settings screen edits these. */
export interface FetchSettings {
  /** Let the guard pass loopback and private addresses (intranet users, tests). */
  allowPrivate: boolean;
  /** Host names (exact, or ".example.org" for a domain and its subdomains) the guard lets through. */
  allowHosts: string[];
  userAgent: string;
  /** Cap on the body after decompression, so a gzip bomb stops here. */
  maxBodyBytes: number;
  /** How long one jq program may run before it is stopped (inside the target's deadline). */
  jqLimitMs: number;
  /** Whole-target deadline: fetch, redirects, extraction, recovery. */
  deadlineMs: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs: number;
  maxRedirects: number;
  /** A Wayback-Machine-availability-shaped endpoint: GET ?url=U → {archived_snapshots:{closest}}. */
  archiveService: string;
  /** A PDF longer than this needs a page selection. */
  maxPdfPages: number;
  /** Fetches in flight in the process. */
  gateSize: number;
  /** How long a fetch waits for a gate slot before it fails 503 busy. */
  gateWaitMs: number;
  /** A target's render option when it names none. */
  render: 'auto' | 'always' | 'never';
  /** How long a page may run before what it has is taken; a page with nothing by then is a 504. */
  renderBudgetMs: number;
  /** Pages rendering at once (each also holds a gate slot). */
  renderPages: number;
  /** A Chromium/Chrome executable; '' = SIFT_CHROMIUM, then the usual places. */
  chromiumPath: string;
}

export const USER_AGENT = `Sift/${VERSION} (+https://github.com/sift-app/sift)`;

export function defaultFetchSettings(): FetchSettings {
  return {
    allowPrivate: false,
    allowHosts: [],
    userAgent: USER_AGENT,
    maxBodyBytes: 50 * 1024 * 1024,
    // The seed's requestDeadline: 210 s leaves a slow 50 MiB PDF time to download and extract.
    deadlineMs: 210_000,
    // 60 s: the slowest real program measured, sorting 90,000 strings of a 9.7 MB document,
    // took 11 s on a busy 2-core machine (counting one, 1.9 s; pretty-printing it, 3.7 s); a
    // program still running at five times that is in a loop, and freeing its thread then
    // leaves the target most of its deadline to fail with a message that says so.
    jqLimitMs: 60_000,
    connectTimeoutMs: 10_000,
    headersTimeoutMs: 30_000,
    bodyTimeoutMs: 30_000,
    maxRedirects: 10,
    archiveService: 'https://archive.org/wayback/available',
    // 500 pages of text is ~1.5 MB, well under the runner's 8 MiB result cap.
    maxPdfPages: 500,
    gateSize: 8,
    gateWaitMs: 5_000,
    render: 'auto',
    // 15 s: a heavy single-page app settles in 2–5 s on a 2-core machine; three times that
    // is generous, and a page still busy then is not going to settle.
    renderBudgetMs: 15_000,
    renderPages: 2,
    chromiumPath: '',
  };
}
