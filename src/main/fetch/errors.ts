import { SiftError } from '../../shared/errors';
import { BLOCKED_TAIL, NEEDS_JS_HINT, type Surface } from '../../shared/hints';
import { reasonOf, type PageReason, type Reason } from '../../shared/reasons';
import { formatBytes } from '../../shared/bytes';

/**
 * A failure of one target, with the HTTP-like status task 06 maps (403 blocked, 429/503 busy,
 * 504 timeout, 415 unsupported, 422 too long or bad option, upstream 4xx/5xx as they came,
 * 502 for connection failures). It is a SiftError, so it crosses IPC as {code, status,
 * message, hint}; `msg` is the seed's name for the message.
 */
export class FetchError extends SiftError {
  /** From a 429/503's Retry-After, so the runner can wait as long as the server asked. */
  retryAfterMs?: number;
  /** The body of an HTML error answer, for the page classification; never shown. */
  page?: Buffer;
  /** The hint's parts when it offers the recover option: the advice alone is what is left once recovery was tried. */
  readonly recoverOffer?: RecoverOffer;
  /**
   * A library's own words for the failure where the message already says it in Sift's (pdf.js's
   * "Invalid PDF structure." after "cut short"): for the log line, never shown.
   */
  detail?: string;
  constructor(status: number, msg: string, hint: string | RecoverOffer = '', code = codeFor(status, msg), retryAfterMs?: number) {
    super(code, status, msg, typeof hint === 'string' ? hint : recoverHint(hint, true));
    this.name = 'FetchError';
    if (typeof hint !== 'string') this.recoverOffer = hint;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
  get msg(): string {
    return this.message;
  }
  /**
   * The hint as it reads after recovery was tried and found nothing: its own advice, without
   * the offer of the recover option that had just failed.
   */
  get hintAfterRecovery(): string {
    return this.recoverOffer ? recoverHint(this.recoverOffer, false) : this.hint;
  }
  /** Why it failed, in SPEC §5.9's words (from the code). */
  get reason(): Reason {
    return reasonOf(this.code, this.status);
  }
}

/** The stable code for a status, matching the outcome names of task 06 rule 2. */
export function codeFor(status: number, msg = ''): string {
  switch (status) {
    case 400:
      return 'bad_url';
    case 403:
      return 'blocked';
    case 429:
    case 503:
      return msg.startsWith('upstream') ? 'upstream_busy' : 'busy';
    case 504:
      return 'timeout';
    case 415:
      return 'unsupported';
    case 422:
      return msg.startsWith('document too long') ? 'too_long' : 'bad_option';
    case 502:
      return 'unreachable';
    default:
      return status >= 400 && status < 500 ? 'upstream_4xx' : 'upstream_5xx';
  }
}

/**
 * The guard does not know its caller: its hint is in the command line's words, and the batch
 * wiring and the app's IPC say it in the app's where the app reads it (hintOn).
 */
export const blocked = (why: string): FetchError => new FetchError(403, 'blocked', `${why}${BLOCKED_TAIL.cli}`);
/** The words a blocked() error was made with ("The address is a private address"), else ''. */
export const blockedWhy = (err: FetchError): string => (err.status === 403 && err.hint.endsWith(BLOCKED_TAIL.cli) ? err.hint.slice(0, -BLOCKED_TAIL.cli.length) : '');

export const timeoutError = (what: string, hint = 'The server was too slow; try again later, or with a smaller document.'): FetchError =>
  new FetchError(504, `timeout: ${what}`, hint);

/**
 * The target's deadline ran out while the server answered: the limit that did it and where to
 * raise it. "The server was too slow" left a user whose limit was 5 s to guess (s26 appqa).
 */
export const DEADLINE_HINT = 'The server took longer than "Time per URL" in Settings allows: try again later, raise that time, or fetch a smaller document.';

/** Extraction (PDF text, jq, grep, readability) ran into the deadline: the server was fine. */
export const EXTRACT_TIMEOUT_HINT =
  'Extracting took longer than the deadline: choose fewer pages, a simpler grep expression or jq program, or raise "Time per URL" in Settings.';

export const badOption = (msg: string, hint: string): FetchError => new FetchError(422, msg, hint, 'bad_option');

/**
 * A hint that ends by offering the recover option (SPEC §5.6), kept in its parts: the advice
 * of its own, and how the offer joins it. A failure that recovery was tried on says the advice
 * alone, then why no archived copy came. The offer used to be composed in and then cut out
 * again by patterns, which a new wording they did not know would have slipped past, telling
 * the user to do what had just failed.
 */
export interface RecoverOffer {
  /** What to do without an archived copy, without its closing full stop: "The page is gone". */
  advice: string;
  /**
   * How the offer follows the advice: a sentence of its own, a clause after a semicolon, an
   * "or use …", or "; if WHEN, …" for the case it fits (a name that does not resolve may be a typo).
   */
  join: 'sentence' | 'clause' | 'or' | { if: string };
}

/** A hint's words from its parts: with the offer of the recover option, or (`offered` false) without it. */
export function recoverHint(h: RecoverOffer, offered: boolean): string {
  if (!offered) return `${h.advice}.`;
  const offer = 'the recover option looks for an archived copy.';
  if (h.join === 'sentence') return `${h.advice}. The recover option looks for an archived copy.`;
  if (h.join === 'clause') return `${h.advice}; ${offer}`;
  if (h.join === 'or') return `${h.advice}, or use the recover option.`;
  return `${h.advice}; if ${h.join.if}, ${offer}`;
}

/**
 * A name that does not resolve is a typo or a site that is gone; recover (SPEC §5.6) reads the
 * latter's archived copy, and the hint said only "check the URL for typos".
 */
export const DNS_HINT: RecoverOffer = { advice: 'The host name does not resolve: check the URL for typos', join: { if: 'the site is gone' } };

const CHALLENGE_MESSAGE = 'challenge: the site answered with an anti-bot check instead of the page';

/**
 * A page that came back but is not the content (SPEC §5.9). The status is the server's when
 * it answered with an error, else the nearest HTTP-like one (a challenge is a refusal, a
 * sign-in wall an "unauthorized", a soft 404 a 404). A challenge answered with 429/503 keeps
 * that status but not the busy reason: it does not clear in the minute the runner retries.
 * `rendered`: the page was run in a browser first, and is still not the content. `signal`:
 * the classification's deciding signal, where the words depend on it. `surface`: where what
 * to do is read (the app has no --render flag to name).
 */
export function pageError(reason: PageReason, upstream: number, rendered = false, signal = '', surface: Surface = 'cli'): FetchError {
  const given = upstream >= 400 ? upstream : 0;
  // A "Too Many Requests" page served as a success is no anti-bot check to pass in a browser:
  // the site is limiting requests, as a 429 says, and is retried later as one (SPEC §5.9's
  // busy). Its reason text said "anti-bot check", which sent people to solve a CAPTCHA.
  if (reason === 'challenge' && signal.startsWith('rate-limit')) return rateLimited(rendered);
  // A ban (the page says the site blocked this address) has no check to pass: "open the URL in
  // a browser to pass the check" sent the user to a browser the same network gets refused in.
  if (reason === 'challenge' && signal === 'ip-ban') {
    return new FetchError(
      given || 403,
      'challenge: the site has blocked the address Sift connects from, and answered with a refusal instead of the page',
      { advice: 'This is a ban, not a check to pass: a browser on this network may be refused too. Try again later (many bans are lifted after a while) or from another network', join: 'sentence' },
      'challenge',
    );
  }
  switch (reason) {
    case 'challenge':
      // A check that sets its cookie and loads the page again may pass in a browser, as the
      // fetcher renders it under auto: unrendered, it said only to open a browser, where
      // Sift's own would have done.
      if (signal === 'cookie-reload' && !rendered) {
        return new FetchError(given || 403, CHALLENGE_MESSAGE, `The check's script sets a cookie and loads the page again, which a browser may pass. ${NEEDS_JS_HINT[surface]}`, 'challenge');
      }
      return new FetchError(
        given || 403,
        CHALLENGE_MESSAGE,
        { advice: `${rendered ? 'It did not clear in a browser either. ' : ''}Open the URL in a browser to pass the check, or try again later`, join: 'sentence' },
        'challenge',
      );
    case 'login':
      return new FetchError(given || 401, 'login: the site answered with a sign-in page instead of the page', { advice: 'The page needs an account: open it in a browser and sign in', join: 'sentence' }, 'login');
    case 'consent':
      return new FetchError(given || 451, 'consent: the site answered with a cookie or consent wall and no content behind it', 'Open the URL in a browser to answer the consent question; Sift does not accept or refuse on your behalf.', 'consent');
    case 'soft404':
      // A parked domain's placeholder (its registrar's, or a seller's) stands where a site was:
      // "ok" with the seller's links as its text read as if the site had answered.
      if (signal === 'parked-domain') {
        return new FetchError(
          given || 404,
          'soft 404: the domain is parked: its registrar or a seller shows a placeholder where the site was, so this page is not there',
          { advice: 'Check the URL for a typo in the domain', join: { if: 'the site moved or closed' } },
          'soft404',
        );
      }
      // A catch-all page (found by asking the host for a path that cannot exist) says nothing
      // of the kind: it is a home page or a shop's front, and "the page says" read as untrue.
      return new FetchError(
        given || 404,
        signal === 'random-path-twin'
          ? 'soft 404: the site answers every address with this same page, so this one does not exist there'
          : 'soft 404: the page says it does not exist, though the server answered with success',
        { advice: 'Check the URL for typos or a moved page', join: 'sentence' },
        'soft404',
      );
    case 'needs_js':
      return rendered
        ? new FetchError(
            given || 422,
            `needs JavaScript: ${DID_NOT_APPEAR}, though its scripts ran`,
            'Its scripts may need a sign-in, cookies or more time than the page was given: open it in a browser to see, or raise "Time a page may run" in Settings.',
            'needs_js',
          )
        : new FetchError(
            given || 422,
            signal === 'route'
              ? "needs JavaScript: the address names a route of a single-page app (#/…), a page only the app's scripts show"
              : 'needs JavaScript: the page is an app shell whose text appears only after its scripts run',
            NEEDS_JS_HINT[surface],
            'needs_js',
          );
  }
}

/**
 * How a rendered page whose content its scripts did not draw begins, before why. It said "the
 * page is an app shell, and it stayed empty": a name of this code's, and untrue of a storefront
 * whose headings showed while its copy stayed in its data.
 */
const DID_NOT_APPEAR = "the page's content did not appear in a browser";

/**
 * A rendered app shell that stayed empty because its script threw (`error`: scriptErrorWords).
 * It said its scripts "may need a sign-in, cookies or more time", and more time changes
 * nothing for a script that stopped at an error.
 */
export const scriptFailed = (emptyShell: FetchError, error: string): FetchError =>
  new FetchError(
    emptyShell.status,
    `needs JavaScript: ${DID_NOT_APPEAR} because its script failed: ${error}`,
    "Open it in a browser to see whether it shows there: if it does, its script needs something Sift's browser does not have (a sign-in, cookies, a feature); if not, the site is broken, and trying again later may do.",
    'needs_js',
  );

/**
 * A rendered app shell that stayed empty because its server answered its scripts with an error
 * (a bundle gone after a deploy): none of them ran, so a sign-in, cookies or more time, which
 * the empty shell's hint offered, change nothing.
 */
export const scriptsMissing = (emptyShell: FetchError, missing: { count: number; status: number }): FetchError =>
  new FetchError(
    emptyShell.status,
    `needs JavaScript: ${DID_NOT_APPEAR} because its server answered ${missing.count} of its scripts with an error (HTTP ${missing.status}), so ${missing.count === 1 ? 'it' : 'they'} never ran`,
    'The site is missing the files that draw the page (often for a while after it is updated): try again later, or open it in a browser to see whether it shows there.',
    'needs_js',
  );

/**
 * A rendered app shell that stayed empty because its server answered its scripts with a web
 * page (a single-page app's catch-all index for a bundle a deploy removed). It quoted the
 * browser's "SyntaxError: Unexpected token '<'", accurate and opaque: the '<' is the page's
 * first tag, and no script of the site's was at fault.
 */
export const scriptsAsHtml = (emptyShell: FetchError, count: number): FetchError =>
  new FetchError(
    emptyShell.status,
    `needs JavaScript: ${DID_NOT_APPEAR} because its server answered ${count} of its scripts with a web page instead of the script, so ${count === 1 ? 'it' : 'they'} never ran`,
    'The site answers the address of the files that draw the page with a web page (often for a while after it is updated, when they have moved): try again later, or open it in a browser to see whether it shows there.',
    'needs_js',
  );

/**
 * A rendered app shell that stayed empty because the host of its scripts did not answer (the
 * proxy's own 502/504, or no answer at all: a CDN that does not resolve or is kept out by this
 * network). It read "stayed empty when its scripts ran … may need a sign-in, cookies or more
 * time", though none ran: a retry helps where the host was down, a look at the network where
 * it is blocked here.
 */
export function scriptsUnreached(emptyShell: FetchError, count: number, hosts: readonly string[] = []): FetchError {
  // The hint agrees with the message: below "the servers they are on (a, b and 1 more)" it told
  // the user to look for "that server", one.
  const several = hosts.length > 1;
  return new FetchError(
    emptyShell.status,
    `needs JavaScript: ${DID_NOT_APPEAR} because ${count} of its scripts could not be loaded: the ${several ? 'servers' : 'server'} ${count === 1 ? 'it is' : 'they are'} on${namedHosts(hosts)} did not answer`,
    `The ${several ? 'servers that hold' : 'server that holds'} the page's scripts did not answer Sift's browser: try again later. If it keeps failing, check this computer's network (a firewall, proxy or blocker may keep ${several ? 'those servers' : 'that server'} out), or open the page in a browser to see whether it shows there.`,
    'needs_js',
  );
}

/**
 * The hosts a message names, as " (a.example, b.example and 3 more)": a user checks a firewall
 * or a blocker for them. Two at most (UNREACHED_HOSTS_NAMED): a storefront's 7 scripts may sit
 * on as many hosts, which would bury what happened.
 */
function namedHosts(hosts: readonly string[]): string {
  if (!hosts.length) return '';
  const named = hosts.slice(0, UNREACHED_HOSTS_NAMED).join(', ');
  const more = hosts.length - UNREACHED_HOSTS_NAMED;
  return ` (${named}${more > 0 ? ` and ${more} more` : ''})`;
}
const UNREACHED_HOSTS_NAMED = 2;

/** The message of a rate-limit page served as a success (the batch wiring's wait says it so too). */
export const RATE_LIMITED = 'rate limited: the site answered with a page saying it gets too many requests, instead of the page';

/**
 * How long a batch waits before it asks a site that said it gets too many requests again. Its
 * page gives no Retry-After, and the runner's own 2 s asked 30 times in its minute a site that
 * had just said it was asked too often; limits are counted per minute or so, and 15 s asks 4.
 */
export const RATE_LIMIT_WAIT_MS = 15_000;

/**
 * A rate-limit page served as a success: busy with the 429 it stands for, so a batch waits
 * and asks again as it does for a real 429, and a person reads what to do.
 */
function rateLimited(rendered: boolean): FetchError {
  return new FetchError(
    429,
    RATE_LIMITED,
    `${rendered ? 'It said so in a browser too. ' : ''}The site limits how often it may be asked: wait a few minutes and try again. In a batch Sift waits and asks again by itself; a list with many of its pages may need running in parts, a while apart.`,
    'busy',
    RATE_LIMIT_WAIT_MS,
  );
}

/**
 * A compressed body that unpacks past the download limit. One that does so from a hundredth
 * of it is a decompression bomb, not a document (165 bytes of brotli unpack to 100 MiB, 100 KB
 * of gzip to 100 MiB; pages and data compress 3-20x): "raise the limit" would only feed it.
 * `sent` counts what reached the decoder, a chunk ahead of what it has unpacked.
 */
export function unpackedTooLong(max: number, sent: number, coding: string): FetchError {
  const base = bodyTooLong(max);
  return new FetchError(
    422,
    `${base.msg} once decompressed (from ${formatBytes(sent)} sent compressed as ${coding})`,
    sent * 100 < max ? 'So few bytes that unpack to so much are a decompression bomb, not a document: raising "Largest download" would not help. Report the site if it claims to serve a document here.' : base.hint,
    'too_long',
  );
}

/** A body over the download limit, counted after decompression (a gzip bomb stops there). */
export const bodyTooLong = (max: number): FetchError =>
  new FetchError(
    422,
    `document too long: body over ${Math.round(max / 1024 / 1024)} MiB`,
    'Raise "Largest download" in Settings if you need documents this large.',
    'too_long',
  );

/** A server's Retry-After in a person's words: "45 s", "20 min", "3 h", "2 days", "more than a year". */
export function waitWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 120 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h`;
  // Retry-After: 999999999 (31 years) is a server's "never", not a date to plan for.
  if (s < 365 * 86400) return `${Math.round(s / 86400)} days`;
  return 'more than a year';
}
