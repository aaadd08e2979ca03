import * as z from 'zod';
import { hintOn, type Surface } from './hints';

/**
 * Why a target failed (SPEC §5.9). The first five are pages that came back but are not the
 * content; the rest are every other way a fetch fails. Stored with the target, printed by
 * the CLI, shown and filtered by the UI, counted by the metrics.
 */
export const PAGE_REASONS = ['challenge', 'login', 'consent', 'soft404', 'needs_js'] as const;
export const REASONS = [
  ...PAGE_REASONS,
  'blocked',
  'timeout',
  'busy',
  'too_long',
  'unsupported',
  'bad_option',
  'upstream',
  'network',
  'cancelled',
  'restart',
  'internal',
] as const;
export const ReasonSchema = z.enum(REASONS);
export type Reason = z.infer<typeof ReasonSchema>;
export type PageReason = (typeof PAGE_REASONS)[number];

export const isReason = (s: unknown): s is Reason => typeof s === 'string' && (REASONS as readonly string[]).includes(s);
export const isPageReason = (s: unknown): s is PageReason => typeof s === 'string' && (PAGE_REASONS as readonly string[]).includes(s);

/** Short words for people (the UI's filter, the job header's counts). */
export const REASON_LABELS: Record<Reason, string> = {
  challenge: 'anti-bot check',
  login: 'sign-in wall',
  consent: 'consent wall',
  soft404: 'not found (soft 404)',
  needs_js: 'needs JavaScript',
  blocked: 'blocked address',
  timeout: 'timed out',
  busy: 'site busy',
  too_long: 'too long',
  // Not 'unsupported type': an encrypted or damaged PDF fails so too, and its type is one Sift reads.
  unsupported: 'unreadable file',
  bad_option: 'bad URL or option',
  // A 404 is an error of the site's but not a server error: one word for 4xx and 5xx.
  upstream: 'HTTP error',
  network: 'network error',
  cancelled: 'cancelled',
  restart: 'interrupted',
  internal: 'Sift bug',
};

/**
 * The warnings of a result that is ok but may not be what was wanted (meta.warnings, SPEC
 * §5.9's "ok with warnings"): what the UI and the CLI call each, and why it was given. `app`:
 * the why as the app says it, where the CLI's names a meta field or an environment variable
 * the app shows under another name (its Meta table's labels, its Settings) or not at all.
 */
export const WARNING_LABELS: Record<string, { label: string; why: string; app?: string }> = {
  recovered: {
    label: 'archived copy',
    why: 'The live page failed, so this came from the archive service: the page as it was when the archive captured it, which may be out of date. Its meta says when (snapshot_time) and where (snapshot_url).',
    app: 'The live page failed, so this came from the archive service: the page as it was when the archive captured it, which may be out of date. Its Meta table says when (Archived at) and where (Archived copy).',
  },
  thin: { label: 'thin page', why: 'Little text came back: a short page, or a teaser in front of a paywall or a sign-in.' },
  not_rendered: {
    label: 'not rendered',
    why: 'Little text came back, and the page carries scripts that may draw the rest, but Sift found no browser to run them (meta render_skipped says why). Install Chromium or Google Chrome, or point Sift at one: SIFT_CHROMIUM=/path/to/chrome, or "Browser for the command line" in the app’s Settings.',
    app: 'Little text came back, and the page carries scripts that may draw the rest, but Sift found no browser to run them (its Meta table’s “Not rendered because” says why). Install Chromium or Google Chrome, or choose one in Settings under “Browser for the command line”, then run the page again.',
  },
  no_text: { label: 'no text layer', why: 'The PDF has no text (scanned pages are images); run it through OCR first.' },
  paywall: { label: 'paywalled', why: 'The page says its article is for subscribers (in its markup, or in a box asking to subscribe to read on), and only a short part of it came back: likely its opening.' },
  teaser: {
    label: 'teaser',
    why: 'Only the opening of the article came back: the page has a sign-in form where the rest of its text would be. Open the page in a browser and sign in to read all of it.',
  },
  empty: { label: 'empty', why: 'Nothing came back: the answer (or the file) was empty. Check the URL or the file, or try again later.' },
  no_entries: { label: 'no entries', why: 'The feed lists no entries (yet): its title came back, nothing else. Try it again later, or check it is the feed you meant.' },
  damaged_pages: { label: 'damaged pages', why: 'Some pages of the PDF are damaged and could not be read; the others came back. A PDF reader may show what is left of them.' },
  no_match: {
    label: 'no match',
    why: 'No line matches the grep expression: the page was read, and nothing in it matched. The expression tells capitals from small letters; (?i) at its start ignores case.',
  },
  no_output: {
    label: 'no jq output',
    why: 'The result is empty: the jq program gave no value for this document (a select that let nothing through, .[] of an empty array, a ? that skipped every value). Run it with . to see what the document holds.',
  },
  no_links: { label: 'no links', why: 'The result is empty: the document was read, and it has no links.' },
  no_answer: { label: 'no answer', why: 'No passage shares a word with the question: the page was read, and nothing in it answers it. Ask with words the document would use.' },
  pages_missing: { label: 'pages past the end', why: 'Some of the pages chosen are past the last page of the PDF: the pages it has came back. Choose pages from 1 to its page count.' },
  pages_ignored: { label: 'pages ignored', why: 'Pages choose parts of a PDF, and this document is not one: all of it came back. Drop the pages option for this document.' },
};
export const warningLabel = (w: string): string => WARNING_LABELS[w]?.label ?? w.replace(/_/g, ' ');
/** Why a warning was given, in the words of the surface that shows it ('' for one Sift has no words for). */
export const warningWhy = (w: string, surface: Surface): string => {
  const known = WARNING_LABELS[w];
  return (surface === 'app' ? known?.app : undefined) ?? known?.why ?? '';
};

/**
 * The warnings that say what was asked found nothing in a page it read (a grep, a question, a
 * jq program, links mode): the answer asked for, not something gone wrong. Summaries count each
 * apart, by its label ("2 with no match"): a batch whose grep matched nothing said "ok 2 (2
 * with warnings)", which read as a fault, and so did a page links mode found no link in.
 */
export const FOUND_NOTHING: readonly string[] = ['no_match', 'no_answer', 'no_output', 'no_links'];

/**
 * A failure as a person reads it. The batch wiring stores a bad gateway (a DNS failure, a
 * refused or reset connection, TLS, an HTTP 502: status 502) as "internal error" with what
 * happened in its hint, as seed 03 rule 1 has it; shown so, every dead link in a list read as
 * a bug in Sift. Such a failure, whose reason is not `internal`, is shown by its hint. The
 * stored error, --json and the export listings keep "internal error". With `surface`, a hint
 * worded for another surface (a job the other one ran) is said in this one's words.
 */
export function shownFailure(f: { error: string; hint: string; reason?: Reason | '' }, surface?: Surface): { error: string; hint: string } {
  const hint = surface ? hintOn(surface, f.hint) : f.hint;
  if (f.error === 'internal error' && f.reason && f.reason !== 'internal' && hint) return { error: hint, hint: '' };
  // An error may name a place too ("rendering unavailable: … in the app’s Settings names no executable browser").
  return { error: surface ? hintOn(surface, f.error) : f.error, hint };
}

/**
 * The steps whose failures are `bad_option` and whose errors name them ("jq: Cannot index array
 * with string"): a failed row's chip names the step. "bad URL or option" was said of a URL that
 * answered and a jq program that compiled, and sent people to check the URL.
 */
const FAILED_STEPS: Record<string, string> = { jq: 'jq program failed', grep: 'grep pattern failed' };

/** The steps failedStep names. */
export const STEP_NAMES: readonly string[] = Object.keys(FAILED_STEPS);

/** The step a bad_option error names, or undefined. */
export const failedStep = (reason: Reason | '' | undefined, error: string): string | undefined =>
  reason === 'bad_option' ? STEP_NAMES.find((step) => error.startsWith(`${step}: `) && error.length > step.length + 2) : undefined;

/** A count of bad_option failures not all of one step: a URL or option refused, and a program that failed. */
const MIXED_OPTION_FAILURES = 'bad URL, option or program';

/**
 * What the job header's chip says of `n` failures of `reason`, `steps` the failed steps
 * (failedStep) counted over the job: the step's words when every one is of that step, as their
 * rows' chips say. A header that said "bad URL or option 1" beside a row's "jq program failed"
 * sent people to check a URL that answered. A big job's rows not read yet are counted by step
 * too (their groups' `step`), so the words are the job's from the first page on.
 */
export function reasonCountLabel(reason: Reason, n: number, steps: readonly (readonly [string, number])[]): string {
  if (reason !== 'bad_option' || steps.length === 0) return REASON_LABELS[reason];
  const [step, count] = steps[0]!;
  return steps.length === 1 && count === n ? FAILED_STEPS[step]! : MIXED_OPTION_FAILURES;
}

/** The words after "targets" for a count's label: "whose jq program failed", "that failed as timed out". */
export const failedAs = (label: string): string => (Object.values(FAILED_STEPS).includes(label) ? `whose ${label}` : `that failed as ${label}`);

/** What a failed target's chip says: its reason's label, or the step that failed when its error names one. */
export function failureLabel(reason: Reason, error: string): string {
  const step = failedStep(reason, error);
  return step ? FAILED_STEPS[step]! : REASON_LABELS[reason];
}

/**
 * A failure as it reads beside its reason's chip, in a row of the table and the result
 * pane's headline. The chip already says what kind of failure it is, so the error does not
 * say it again:
 * - a page reason's error starts by naming it ("challenge: the site answered with an anti-bot
 *   check…"): the rest is what fits in a one-line cell;
 * - a timeout's starts with its code word ("timeout: could not connect in time", beside
 *   "timed out"): the rest;
 * - a blocked or busy target's error is the code word alone ("blocked" beside "blocked
 *   address", "busy" beside "site busy"), and what happened is its hint ("The address is
 *   private. Sift does not fetch…"): the hint's first sentence takes its place.
 */
export function failureBesideReason(f: { error: string; hint: string }, reason: Reason | '' | undefined): { error: string; hint: string } {
  if (!reason) return f;
  if (f.error === reason && f.hint) {
    // Its first sentence says what happened; the rest, what to do.
    const m = /^(.+?)\. (\S[\s\S]*)$/.exec(f.hint);
    return m ? { error: m[1]!, hint: m[2]! } : { error: f.hint, hint: '' };
  }
  if (isPageReason(reason)) {
    const m = /^[^:]{1,24}: (\S[\s\S]*)$/.exec(f.error);
    return { error: m?.[1] ?? f.error, hint: f.hint };
  }
  const step = failedStep(reason, f.error);
  // The chip says "jq program failed": jq's message follows, a sentence of its own.
  if (step) return { error: f.error.slice(step.length + 2), hint: f.hint };
  const own = `${reason}: `;
  if (f.error.startsWith(own) && f.error.length > own.length) return { error: besideOwnReason(reason, f.error.slice(own.length)), hint: f.hint };
  return f;
}

/** A media type alone ("image/png", "application/vnd.ms-excel"), as an unsupported document's error names it. */
const MEDIA_TYPE = /^[a-z]+\/[\w.+-]+$/i;

/**
 * What is left of an error once its reason's code word goes. An unsupported document's is its
 * type alone, which the result pane headed as "Image/png": said as what the address gave.
 */
function besideOwnReason(reason: Reason, rest: string): string {
  return reason === 'unsupported' && MEDIA_TYPE.test(rest) ? `the address gives ${rest}` : rest;
}

/**
 * The reason of an error's stable code (the codes of FetchError, TargetError and the
 * runner's errors). A page reason is its own code. Unknown codes fall back on the status.
 */
export function reasonOf(code: string, status: number): Reason {
  if (isReason(code)) return code;
  switch (code) {
    case 'upstream_busy':
      return 'busy';
    case 'bad_url':
    case 'bad_input':
      return 'bad_option';
    case 'bad_document':
      return 'unsupported';
    // A body that does not decompress as its Content-Encoding says came whole: the server's
    // headers misdescribe what it sent, a fault of the site's as a 5xx is. Read as
    // `unsupported` ("unreadable file") it sent people to the document, which is fine.
    case 'corrupt_body':
      return 'upstream';
    case 'dns':
    case 'unreachable':
    case 'tls':
      return 'network';
    // A redirect loop, a chain too long, a Location Sift cannot follow: the site answered, in
    // HTTP, and its answers lead nowhere. Read as `network` they sent people to check their
    // connection for a fault of the site's.
    case 'redirects':
    case 'upstream_4xx':
    case 'upstream_5xx':
    case 'upstream_status':
      return 'upstream';
    case 'AbortError':
      return 'cancelled';
    default:
      break;
  }
  if (status === 499) return 'cancelled';
  if (status === 504) return 'timeout';
  if (status === 429 || status === 503) return 'busy';
  if (status === 415) return 'unsupported';
  if (status === 403) return 'blocked';
  if (status === 422) return 'bad_option';
  if (status === 502) return 'network';
  if (status >= 400 && status < 500) return 'upstream';
  return 'internal';
}
