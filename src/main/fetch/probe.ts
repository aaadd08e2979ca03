import { randomBytes } from 'node:crypto';
import { decodeText } from './charset';
import type { HttpResponse } from './client';

/** Remembered probes: one per host per job; a job of 10,000 targets over 500 hosts fits. */
const MAX_ENTRIES = 1000;
/** A probe outlives no job by much: a host's catch-all page can change between runs. */
const TTL_MS = 30 * 60 * 1000;

type Download = (url: string) => Promise<HttpResponse>;

/** A host's page for a random path, and the words of either path, which do not count in comparing it (pageSimilarity). */
export interface RandomPathPage {
  page: string;
  echoes: string[];
}
interface Asked {
  at: number;
  token: string;
  /** The page the host answered, undefined for an error answer or a failure; never rejects. */
  page: Promise<string | undefined>;
}

/**
 * The soft-404 probe (SPEC §5.9): what a host answers for a path that cannot exist. A host
 * that answers such a path with 200 and the same page as a target's has no such page: that
 * target is its catch-all. Asked at most once per host per job (the key), through the same
 * guarded client as every fetch, and remembered, failures included.
 */
export class SoftNotFoundProbe {
  private readonly cache = new Map<string, Asked>();
  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Starts asking `url`'s host for a random path, unless this job already did, so that the
   * answer comes in while the target's own does (a host's first target would otherwise wait
   * for a second round trip after its own). Returns the ask, which never rejects.
   */
  prefetch(key: string, url: string, download: Download, signal: AbortSignal): Promise<unknown> {
    return this.ask(key, new URL(url).origin, download, signal).page;
  }

  /**
   * The host's answer for a random path, to compare with a target's answer (from `finalUrl`),
   * with the words that do not count in the comparison (`echoes`: catch-all pages echo the
   * path they were asked for); undefined when the host answers such paths with an error (it
   * has real 404s). The host is the one the target landed on. Where that is the asked URL's
   * own site under another scheme or "www." (http: to https:, a.org to www.a.org), the ask
   * made beside the target (prefetch) went the same way and serves; a redirect to another
   * site (a shortened link) is asked of that site.
   */
  async randomPathPage(key: string, askedUrl: string, finalUrl: string, download: Download, signal: AbortSignal): Promise<RandomPathPage | undefined> {
    const u = new URL(finalUrl);
    const asked = new URL(askedUrl);
    const hit = this.ask(key, sameSite(asked, u) ? asked.origin : u.origin, download, signal);
    const page = await hit.page;
    if (page === undefined) {
      // No answer because the caller cancelled is no word of the host's: judged without it, a
      // catch-all page a redirect led to (a shortened link) was stored ok after the cancel.
      signal.throwIfAborted();
      return undefined;
    }
    return { page, echoes: [hit.token, ...u.pathname.split(/[/._-]+/).filter((w) => w.length > 2)] };
  }

  /** The job's ask of `origin` for a random path: the remembered one, or a new one. */
  private ask(key: string, origin: string, download: Download, signal: AbortSignal): Asked {
    const cacheKey = `${key}\n${origin}`;
    let hit = this.cache.get(cacheKey);
    if (!hit || this.now() - hit.at > TTL_MS) {
      const token = randomBytes(9).toString('hex');
      hit = { at: this.now(), token, page: fetchPage(`${origin}/${token}`, download) };
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, hit);
      if (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      // An ask the caller cancelled is no answer of the host: remembered, a cancelled preview
      // left its host's catch-all pages unjudged by the probe, ok for that caller, for TTL_MS.
      const asked = hit;
      void asked.page.then((page) => {
        if (page === undefined && signal.aborted && this.cache.get(cacheKey) === asked) this.cache.delete(cacheKey);
      });
    }
    return hit;
  }
}

/** The same host but for a leading "www." and the scheme, on the scheme's own port or the same one. */
function sameSite(a: URL, b: URL): boolean {
  const bare = (h: string): string => h.replace(/^www\./i, '');
  return bare(a.hostname) === bare(b.hostname) && a.port === b.port;
}

async function fetchPage(url: string, download: Download): Promise<string | undefined> {
  try {
    const res = await download(url);
    if (res.status < 200 || res.status >= 300 || !/html/i.test(res.contentType)) return undefined;
    return decodeText(res.body, res.contentType, true).text;
  } catch {
    return undefined;
  }
}
