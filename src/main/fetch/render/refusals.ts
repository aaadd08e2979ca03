import { ALLOW_HOST_HINT, type Surface } from '../../../shared/hints';
import type { ProxyEvent } from './proxy';

/** What the guard refused of one rendered page: how many requests, to which hosts, and why. */
export interface GuardRefusals {
  requests: number;
  /** The hosts refused, in the order first refused (a request that named none is counted only). */
  hosts: string[];
  /** The guard's words, each once: "The address is a loopback address (this computer)". */
  why: string[];
}

/** Tallies the refusals of one page's requests as the proxy reports them. */
export class RefusalTally {
  private requests = 0;
  private readonly hosts = new Set<string>();
  private readonly why = new Set<string>();

  add(e: ProxyEvent): void {
    if (e.kind !== 'refused') return;
    this.requests++;
    if (e.host) this.hosts.add(e.host);
    if (e.why) this.why.add(e.why);
  }
  /** Whether the guard refused this host while the page rendered. */
  refused(host: string): boolean {
    return this.hosts.has(host);
  }
  get any(): boolean {
    return this.requests > 0;
  }
  /** The tally, or undefined when nothing was refused. */
  result(): GuardRefusals | undefined {
    return this.requests ? { requests: this.requests, hosts: [...this.hosts], why: [...this.why] } : undefined;
  }
}

/** An IPv6 address as a URL writes it ([::1]), so the colons do not read as punctuation. */
const shownHost = (h: string): string => (h.includes(':') ? `[${h}]` : h);

/** "The address is a private address" as a list item: "a private address". */
const whyWords = (w: string): string => w.replace(/^The address is /, '').replace(/^./, (c) => c.toLowerCase());

// Enough hosts for a user to see what to allow; a page of ad hosts would fill a screen.
const HOSTS_NAMED = 5;


/** "Sift's guard refused 2 requests the page made, to 10.0.0.5: a private address." */
function refusedSentence(r: GuardRefusals): string {
  const named = r.hosts.slice(0, HOSTS_NAMED).map(shownHost).join(', ');
  const more = r.hosts.length > HOSTS_NAMED ? ` and ${r.hosts.length - HOSTS_NAMED} more` : '';
  const to = named ? `, to ${named}${more}` : '';
  const why = r.why.length ? `: ${r.why.map(whyWords).join('; ')}` : '';
  return `Sift's guard refused ${r.requests} ${r.requests === 1 ? 'request' : 'requests'} the page made${to}${why}.`;
}

/**
 * The refusals in words for the result's meta: what was refused, why, and what to do. A page
 * whose images or data came from an intranet host rendered without them, and nothing in the
 * result said why.
 */
export function refusalWords(r: GuardRefusals, surface: Surface): string {
  return `${refusedSentence(r)} What ${r.requests === 1 ? 'it' : 'they'} would have loaded (images, scripts, data) is not in the result. ${ALLOW_HOST_HINT[surface]}`;
}

/**
 * The words for a page whose script, once the page had loaded, sent the browser on to an
 * address the guard refuses: a "your download starts now" page whose file is on another host,
 * which a browser saves beside the page. Sift cannot tell that from a move to another page
 * without asking the host, so the page stands as its server sent it.
 */
export function leftWords(r: GuardRefusals | undefined, surface: Surface): string {
  const tally = r ? `${refusedSentence(r)} ` : '';
  return `${tally}Once it had loaded, the page went on to an address Sift does not fetch (a file to download, or another page): this is the page as its server sent it, without its scripts run. ${ALLOW_HOST_HINT[surface]}`;
}

/**
 * The hint of an app shell that stayed empty in the browser while the guard refused some of
 * its requests: those are the likely reason, first. It read "its scripts may need a sign-in,
 * cookies or more time … raise Time a page may run", and more time changed nothing when the
 * page's data came from a host on the user's network that Sift does not fetch.
 */
export function emptyShellHint(r: GuardRefusals, hint: string, surface: Surface): string {
  return `${refusedSentence(r)} The page's content may come from ${r.requests === 1 ? 'it' : 'them'}. ${ALLOW_HOST_HINT[surface]} Otherwise: ${hint.charAt(0).toLowerCase()}${hint.slice(1)}`;
}

/**
 * The hint of an app whose own scripts the guard refused (`scriptHosts`: the refused hosts its
 * HTML loads a script from): the page rendered as its server sent it (a header over an empty
 * root), stored "ok, thin page", and nothing said that allowing their host would draw the rest.
 * The other refused hosts are named apart: "load from there" read as if every refused host held
 * its scripts, and a data host the page also needed went unsaid.
 */
export function scriptsRefusedHint(r: GuardRefusals, scriptHosts: readonly string[], surface: Surface): string {
  const others = r.hosts.length - scriptHosts.length;
  const from = others > 0 ? scriptHosts.map(shownHost).join(', ') : 'there';
  const data = others > 0 ? `; its data may come from the other ${others === 1 ? 'host' : `${others} hosts`}` : '';
  return `${refusedSentence(r)} The page's scripts load from ${from}, and they draw its content${data}. ${ALLOW_HOST_HINT[surface]}`;
}
