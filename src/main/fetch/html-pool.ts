import type { ErrorInfo } from '../../shared/errors';
import { classifyPage, pageSimilarity, type Classification, type ClassifyInput } from './classify';
import { FetchError } from './errors';
import type * as FeedModule from './feed';
import type { FeedRead } from './feed';
import type * as HtmlModule from './html';
import type { Article } from './html';
import type { FeedFormat } from './sniff';
import { readJson, type JsonRead } from './json-doc';
import { answer, type Answer } from './question';
import { WorkerCrash, WorkerPool, workerScript } from './worker-slot';
import { RAW_STILL } from '../../shared/hints';

/** The parts of an Article that cost a pass over it: each is made only when asked for. */
export type ArticlePart = 'markdown' | 'text' | 'html';

export type HtmlRequest = { html: string; url: string } & (
  | { op: 'article'; parts: ArticlePart[] }
  | { op: 'links' }
  | { op: 'meta' }
  | { op: 'classify'; input: Omit<ClassifyInput, 'html' | 'url'> }
  | { op: 'similarity'; other: string; echoes: string[] }
  | { op: 'feed'; format: FeedFormat; mode: string }
  | { op: 'answer'; question: string; context: boolean; markdown: boolean }
  | { op: 'json'; mode: string }
);

export interface HtmlReply {
  id: number;
  article?: Omit<Article, ArticlePart> & Partial<Record<ArticlePart, string>>;
  links?: string[];
  meta?: Record<string, unknown>;
  classification?: Classification;
  similarity?: number;
  feed?: FeedRead;
  answer?: Answer;
  json?: JsonRead;
  /** A FetchError's parts (a page nested too deep), or any other error's message. */
  error?: Partial<ErrorInfo> & { message: string };
}

export interface HtmlPoolOptions {
  /** Pages of at least this many characters go to the worker (WORKER_FROM_CHARS). */
  workerFrom?: number;
  /** The worker's heap (WORKER_HEAP_MB); tests lower it. */
  heapMb?: number;
}

/**
 * From this size a page is read in the worker. Reading holds the thread ~1.2 s per MB of HTML
 * on the 2-core build machine (parse, Readability, markdown): 256 KiB of dense article took
 * 0.4 s, in this thread or in the worker alike (medians of 5; 1 MiB: 1.3 s here, 1.0 s there;
 * 32 KiB: 90 ms and 93 ms), so no page below it holds the event loop much longer than that,
 * and the copy across costs nothing measurable above it. The 1,000 small pages of the batch
 * bench stay here; of the article benchmark's 91 pages (median 112 KiB), 12 go to the worker.
 */
export const WORKER_FROM_CHARS = 256 * 1024;

/**
 * The worker's heap. A 15 MB page is read within 1 GiB (the whole process peaked at 0.83 GB);
 * at that rate a page near the 50 MiB body limit would need ~3 GB. Past 2 GiB a page fails
 * as too long instead of taking the app's main process with it.
 */
export const WORKER_HEAP_MB = 2048;

/**
 * The HTML stack (html.ts: linkedom, Readability, turndown, domino, 1.4 MB of the CLI bundle)
 * is loaded in this thread by the first document that needs it. A page in mode raw, JSON,
 * plain text and PDFs never do, and loading it was 150 to 180 ms of every `sift extract` of
 * a text or JSON file (370 ms in all) and of a raw `sift fetch`.
 */
let htmlModule: Promise<typeof HtmlModule> | undefined;
export const loadHtml = (): Promise<typeof HtmlModule> => (htmlModule ??= import('./html'));

/** The feed reader (feed.ts), loaded with the HTML stack it uses by the first feed. */
let feedModule: Promise<typeof FeedModule> | undefined;
export const loadFeed = (): Promise<typeof FeedModule> => (feedModule ??= import('./feed'));

/**
 * The worker's script: html-worker.mjs, bundled beside the code that starts it (out/cli,
 * out/main); run from the sources (the tests, a checkout without its bundle), html-worker.ts
 * through tsx (html-worker-tsx.cjs).
 */
const workerEntry = (): string => workerScript(__filename.endsWith('.ts') ? 'html-worker-tsx.cjs' : 'html-worker.mjs');

/**
 * Reads HTML pages: a small page in this thread, a large one in a worker thread, where a
 * cancel or the deadline terminates it at once and its heap is capped. One worker, kept
 * between pages (loading the HTML stack in it costs ~0.2 s): large pages are rare, and
 * two of them at once would need twice the memory.
 */
export class HtmlPool {
  private readonly workerFrom: number;
  private readonly heapMb: number;
  private pool: WorkerPool | undefined;
  /** Pages being read in the worker now, and waiting for it. */
  inWorker = 0;
  /** What the worker was asked, by kind, since the start. */
  readonly asked: Partial<Record<HtmlRequest['op'], number>> = {};

  constructor(opts: HtmlPoolOptions = {}) {
    this.workerFrom = opts.workerFrom ?? WORKER_FROM_CHARS;
    this.heapMb = opts.heapMb ?? WORKER_HEAP_MB;
  }

  /** Worker threads started: a cancel ends one, and the next large page starts another. */
  get spawned(): number {
    return this.pool?.spawned ?? 0;
  }

  /** The readable article of a page, with the parts asked for (the others are not made in the worker). */
  async article(html: string, url: string, parts: ArticlePart[], signal: AbortSignal): Promise<Article> {
    if (html.length < this.workerFrom) return (await loadHtml()).extractArticle(html, url);
    const { article } = await this.run({ op: 'article', html, url, parts }, signal);
    return withParts(article!, parts);
  }

  /** Every http(s) link of the page (html.ts extractLinks). */
  async links(html: string, url: string, signal: AbortSignal): Promise<string[]> {
    if (html.length < this.workerFrom) return (await loadHtml()).extractLinks(html, url);
    return (await this.run({ op: 'links', html, url }, signal)).links!;
  }

  /** The page's title, description, feeds, og:* and twitter:* (html.ts extractMeta). */
  async meta(html: string, url: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (html.length < this.workerFrom) return (await loadHtml()).extractMeta(html, url);
    return (await this.run({ op: 'meta', html, url }, signal)).meta!;
  }

  /**
   * What the page is (classify.ts: a challenge, a sign-in wall, a soft 404… or the content).
   * Its scans cost ~0.3 s per MB: a large page is judged in the worker too.
   */
  async classify(input: ClassifyInput, signal: AbortSignal): Promise<Classification> {
    if (input.html.length < this.workerFrom) return classifyPage(input);
    const { html, url, ...rest } = input;
    return (await this.run({ op: 'classify', html, url, input: rest }, signal)).classification!;
  }

  /**
   * How alike a page is to its host's page for a random path (classify.ts pageSimilarity):
   * both are parsed, ~0.15 s per MB, so where either is large it is done in the worker.
   */
  async similarity(html: string, other: string, echoes: string[], signal: AbortSignal): Promise<number> {
    if (Math.max(html.length, other.length) < this.workerFrom) return pageSimilarity(html, other, echoes);
    return (await this.run({ op: 'similarity', html, url: '', other, echoes }, signal)).similarity!;
  }

  /**
   * An RSS, Atom or RDF feed read in a mode (feed.ts readFeed). Its entries become one
   * document, read as a page is (~1.2 s per MB of markdown): a large feed is read in the worker.
   */
  async feed(xml: string, format: FeedFormat, mode: string, url: string, signal: AbortSignal): Promise<FeedRead> {
    if (xml.length < this.workerFrom) return (await loadFeed()).readFeed({ xml, format }, mode, url);
    return (await this.run({ op: 'feed', html: xml, url, format, mode }, signal)).feed!;
  }

  /**
   * The passages of a text that answer a question (question.ts answer). Indexing every
   * passage costs ~0.5 s per MB: a text of the worker's threshold or more is ranked there.
   */
  async answer(text: string, question: string, context: boolean, signal: AbortSignal, markdown = false): Promise<Answer> {
    if (text.length < this.workerFrom) return answer(text, question, context, markdown);
    return (await this.run({ op: 'answer', html: text, url: '', question, context, markdown }, signal)).answer!;
  }

  /**
   * A JSON document read in a mode (json-doc.ts readJson): parsing and laying out take ~0.1 s
   * per MB, so a document of the worker's threshold or more is read there.
   */
  async json(text: string, mode: string, url: string, signal: AbortSignal): Promise<JsonRead> {
    if (text.length < this.workerFrom) return readJson(text, mode, url, loadFeed);
    return (await this.run({ op: 'json', html: text, url, mode }, signal)).json!;
  }

  private async run(msg: HtmlRequest, signal: AbortSignal): Promise<HtmlReply> {
    if (!this.pool) {
      this.pool = new WorkerPool(workerEntry(), 1, this.heapMb);
    }
    this.inWorker++;
    this.asked[msg.op] = (this.asked[msg.op] ?? 0) + 1;
    let reply: HtmlReply;
    try {
      reply = await this.pool.run<HtmlReply>(msg, signal);
    } catch (err) {
      if (!(err instanceof WorkerCrash)) throw err;
      if (/memory/i.test(err.message)) {
        const feed = msg.op === 'feed';
        const chars = (msg.html.length / 1024 / 1024).toFixed(1);
        throw new FetchError(
          422,
          `document too long: reading the ${feed ? 'feed' : 'page'} took more than ${this.heapMb} MB of memory`,
          `Sift cannot read the ${feed ? 'entries of a feed' : 'article in a page'} of ${chars} million characters; ${RAW_STILL.cli}.`,
          'too_long',
        );
      }
      throw new Error(`the HTML worker stopped: ${err.message}`);
    } finally {
      this.inWorker--;
    }
    const e = reply.error;
    if (e) throw e.status !== undefined && e.code !== undefined ? new FetchError(e.status, e.message, e.hint, e.code) : new Error(e.message);
    return reply;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

/** An article made in the worker: reading a part it was not asked for is a bug here, said as one. */
function withParts(a: NonNullable<HtmlReply['article']>, parts: ArticlePart[]): Article {
  const part = (p: ArticlePart) => (): string => {
    const v = a[p];
    if (v === undefined) throw new Error(`the article's ${p} was not asked of the HTML worker (asked: ${parts.join(', ')})`);
    return v;
  };
  return {
    title: a.title,
    byline: a.byline,
    lang: a.lang,
    excerpt: a.excerpt,
    get markdown() {
      return part('markdown')();
    },
    get text() {
      return part('text')();
    },
    get html() {
      return part('html')();
    },
  };
}
