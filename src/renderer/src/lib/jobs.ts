import { isCutShort, isTerminal, storeStopOf, type Job, type StoreStop, type TargetRow } from '../../../shared/types';
import { formatCreated } from './format';
import { counted } from '../../../shared/count';
import { failedCount, finishedCount, unfinishedCount, type JobCounts } from '../../../shared/job-counts';
import { hostWithoutPort, listPart, namedHosts } from '../../../shared/job-label';

/** The error main stores on jobs it found in flight at start-up (SPEC §3 rule 8). */
export const RESTART_ERROR = 'restart';

export const isInterrupted = (j: Pick<Job, 'status' | 'error'>): boolean => j.status === 'failed' && j.error === RESTART_ERROR;
export const isLive = (j: Pick<Job, 'status'>): boolean => j.status === 'queued' || j.status === 'running';
export const okCount = (j: Pick<Job, 'targetsDone' | 'targetsFailed'>): number => j.targetsDone - j.targetsFailed;

// The counts a person reads: main and the CLI count them too.
export { failedCount, finishedCount, unfinishedCount };

/** A job as the job list names it: its list's name (a file's, or the first URL's host) and the count. */
export function jobName(j: Pick<Job, 'label' | 'targetsTotal'>): string {
  const { label, count } = jobNameParts(j);
  return label ? `${label} · ${count}` : count;
}

/** jobName's two parts, for a narrow list that shortens the name and keeps the count. */
export const jobNameParts = (j: Pick<Job, 'label' | 'targetsTotal'>): { label: string; count: string } => ({ label: j.label ?? '', count: counted(j.targetsTotal, 'URL') });

/**
 * The notice of a job the store stopped (a full disk): why, that the `kept` finished results
 * are kept, and what to do before running the rest again; undefined for any other job.
 */
export function storeStopNotice(j: Pick<Job, 'status' | 'error'>, kept: number, unfinished: number): string | undefined {
  const stop = storeStopOf(j);
  if (!stop) return undefined;
  const first = stop.first.charAt(0).toUpperCase() + stop.first.slice(1);
  if (kept === 0) {
    const rest = unfinished > 0 ? `, then run the rest again to fetch ${unfinished === 1 ? 'it' : `all ${unfinished.toLocaleString()}`}` : '';
    return `This job stopped before any target finished, because ${stop.why}. ${first}${rest}.`;
  }
  const rest = unfinished > 0 ? `, then run the rest again to fetch the other ${unfinished.toLocaleString()}` : '';
  return `This job stopped after ${counted(kept, 'target')} because ${stop.why}. ${keptWords(kept)} ${first}${rest}.`;
}

/** "Its result is kept." or "Their results are kept.", as many finished. */
const keptWords = (kept: number): string => (kept === 1 ? 'Its result is kept.' : 'Their results are kept.');

/**
 * What the job view says of a job Sift was closed under (SPEC §3 rule 8): how far it got, and
 * what to do. "It stopped after 0 targets. Their results are kept." was said of a job closed
 * before its first target finished.
 */
export function restartNotice(finished: number, unfinished: number): string {
  if (finished === 0) {
    return `Sift was closed while this job ran, before any target finished.${unfinished > 0 ? ` Run the rest again to fetch ${unfinished === 1 ? 'it' : `all ${unfinished.toLocaleString()}`}.` : ''}`;
  }
  return `Sift was closed while this job ran, so it stopped after ${counted(finished, 'target')}. ${keptWords(finished)}${unfinished > 0 ? ` Run the rest again to fetch the other ${unfinished.toLocaleString()}.` : ''}`;
}

/** A store stop in the few words a badge in the 250 px job list has room for. */
const STOP_WORDS: Record<StoreStop, string> = {
  'disk full': 'disk full',
  'database damaged': 'database damaged',
  'database could not be written': 'database not writable',
};

export interface StopBadge {
  kind: 'interrupted' | 'stopped' | 'not-fetched';
  label: string;
  title: string;
}

/**
 * What the badge of a job that did not end by itself says instead of "failed": that Sift was
 * closed while it ran, or why the store stopped it, with a title that says what to do;
 * undefined for any other job.
 */
export function stopBadge(j: Pick<Job, 'status' | 'error'>): StopBadge | undefined {
  if (isInterrupted(j)) {
    return { kind: 'interrupted', label: 'interrupted', title: 'Sift was closed while this job ran. Its finished results are kept; run the rest again to fetch the others.' };
  }
  const stop = storeStopOf(j);
  if (!stop) return undefined;
  return {
    kind: 'stopped',
    label: `stopped: ${STOP_WORDS[j.error as StoreStop]}`,
    title: `Stopped because ${stop.why}. Its finished results are kept; ${stop.first}, then run the rest again.`,
  };
}

/**
 * The badge of a target still pending in a job that has ended (cancelled, interrupted,
 * stopped): the job will not fetch it, where "pending" read as still to come.
 */
export const NOT_FETCHED: StopBadge = { kind: 'not-fetched', label: 'not fetched', title: 'Not fetched: the job ended before it. Run the rest again to fetch it.' };

/**
 * The badge of a target cut short (isCutShort): being fetched when the job was cancelled or
 * Sift was closed. Stored as failed, it read "failed" in a job whose header counts it apart.
 */
export const STOPPED_MIDWAY: StopBadge = { kind: 'not-fetched', label: 'stopped', title: 'Stopped while it was being fetched. Run the rest again to fetch it.' };

/**
 * What a target's badge says instead of its stored status, wherever the target is shown (its
 * row, its result pane): NOT_FETCHED for one left pending by a job that has ended,
 * STOPPED_MIDWAY for one cut short; undefined when its status says it. The pane read "failed"
 * for the row that said "stopped", and "pending" for the one that said "not fetched".
 */
export function targetStop(row: Pick<TargetRow, 'status' | 'error'>, jobEnded: boolean): StopBadge | undefined {
  if (row.status === 'pending') return jobEnded ? NOT_FETCHED : undefined;
  return isCutShort(row) ? STOPPED_MIDWAY : undefined;
}

const ENDED: Partial<Record<Job['status'], string>> = { done: 'Done', partial: 'Done, some failed', failed: 'Failed', cancelled: 'Cancelled' };

/**
 * What the job's live region says to a screen reader: its progress by quarters while it runs,
 * then how it ended. Each change of this text is heard, so it changes at most five times a
 * job: said per target, a list of 1,000 URLs was 1,000 interruptions.
 */
export function progressAnnouncement(j: Pick<Job, 'status' | 'error'> & JobCounts): string {
  if (isLive(j)) {
    const quarter = j.targetsTotal > 0 ? Math.floor((4 * j.targetsDone) / j.targetsTotal) : 0;
    return quarter === 0 ? `Fetching ${counted(j.targetsTotal, 'URL')}.` : `${quarter * 25}% fetched.`;
  }
  const stop = stopBadge(j)?.label;
  const how = stop ? stop.charAt(0).toUpperCase() + stop.slice(1) : (ENDED[j.status] ?? j.status);
  const left = unfinishedCount(j);
  return `${how}: ${okCount(j).toLocaleString()} OK, ${failedCount(j).toLocaleString()} failed${left > 0 ? `, ${left.toLocaleString()} not fetched` : ''}.`;
}


/**
 * How long before the expiry sweep deletes a finished job its item in the job list says when:
 * a day, so someone who opens Sift once a day sees it coming and can open (keep) or export it.
 */
export const EXPIRY_WARNING_MS = 24 * 3600_000;

/**
 * When the expiry sweep deletes this job with its results (its lease lapses, SPEC §3 rule
 * 11); null while it runs, as every target it stores pushes that back.
 */
export const expiresAt = (j: Pick<Job, 'status' | 'leaseExpires'>): number | null => (isTerminal(j.status) ? j.leaseExpires : null);

/**
 * The job view's line on its expiry. Nothing said it: a job the user came back to after a week
 * was gone, and the only word of a lifetime was a field in Settings.
 */
export function expiryNotice(at: number, now: number, locale?: string): string {
  if (at <= now) return 'Its time is up: Sift deletes this job and its results within a minute.';
  // One line at 800 px (75 characters): the sentence before it, 114, took two of a header that hid the results.
  return `Kept until ${formatCreated(at, now, locale)}, then deleted; opening it again keeps it longer.`;
}

/** The job list's few words for a job the sweep deletes within EXPIRY_WARNING_MS; undefined for any other. */
export function expiryWarning(at: number | null, now: number, locale?: string): string | undefined {
  if (at === null || at - now > EXPIRY_WARNING_MS) return undefined;
  return at <= now ? 'expires now' : `expires ${formatCreated(at, now, locale)}`;
}

/**
 * The ids of the jobs, in their order, whose label (a list's file name, or its first URL's
 * host) holds every word of `query`, in any case; none for a query of no words. The count the
 * name ends with is left out: every job of one URL matched "1".
 */
export function jobNamesMatching(jobs: readonly Job[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return jobs
    .filter((j) => {
      const label = j.label?.toLowerCase();
      return label && words.every((w) => label.includes(w));
    })
    .map((j) => j.id);
}

const sharedCache = new WeakMap<object, ReadonlyMap<string, readonly string[]>>();

/**
 * The list names ("links.txt") that two or more of `jobs` have while asking different things of
 * them, each with those jobs' whole names: their names are cut to show where what is asked
 * differs (cutLabel). Once per jobs object, as every item of a 250-job list reads it on each
 * progress event.
 */
export function namesAskedApart(jobs: Readonly<Record<string, Pick<Job, 'label'>>>): ReadonlyMap<string, readonly string[]> {
  const known = sharedCache.get(jobs);
  if (known) return known;
  const labels = new Map<string, Set<string>>();
  for (const j of Object.values(jobs)) {
    if (!j.label) continue;
    const name = listPart(j.label);
    const seen = labels.get(name) ?? new Set<string>();
    seen.add(j.label);
    labels.set(name, seen);
  }
  const shared = new Map([...labels].filter(([, seen]) => seen.size > 1).map(([name, seen]) => [name, [...seen]]));
  sharedCache.set(jobs, shared);
  return shared;
}

const portsCache = new WeakMap<object, ReadonlySet<string>>();

/**
 * The hosts ("127.0.0.1") that jobs named by their host:ports (namedHosts) have at two or more
 * ports, in one job or across jobs: only there does the port tell one site from another. Once per jobs object, as namesAskedApart.
 */
export function hostsAtSeveralPorts(jobs: Readonly<Record<string, Pick<Job, 'label'>>>): ReadonlySet<string> {
  const known = portsCache.get(jobs);
  if (known) return known;
  const ports = new Map<string, Set<string>>();
  for (const j of Object.values(jobs)) {
    for (const hostPort of (j.label ? namedHosts(j.label)?.hosts : undefined) ?? []) {
      // namedHosts' hosts are host:ports, so each has a host.
      const host = hostWithoutPort(hostPort) ?? hostPort;
      ports.set(host, (ports.get(host) ?? new Set<string>()).add(hostPort));
    }
  }
  const several = new Set([...ports].filter(([, seen]) => seen.size > 1).map(([host]) => host));
  portsCache.set(jobs, several);
  return several;
}

/**
 * The name the job list and the header show for `label`: without the ports of the host:ports it
 * is named by where none of those hosts is at another port in `jobs`. The 800 px list had room
 * for "127.0.0.1" only, and the header beside it read "127.0.0.1:40965 · 2 URLs", two names for
 * one job (of two sites, "127.0.0.1:43645 +1" beside "127.0… +1"); the ports are in both
 * tooltips and in each row's address.
 */
export function shownLabel(label: string, jobs: Readonly<Record<string, Pick<Job, 'label'>>>): string {
  const named = label ? namedHosts(label) : undefined;
  if (!named) return label;
  const several = hostsAtSeveralPorts(jobs);
  return named.hosts.some((h) => several.has(hostWithoutPort(h) ?? h)) ? label : named.withoutPorts;
}
