// The HTML worker: a large page's parse, Readability and turndown run here (about a second
// per MB of HTML, most of a gigabyte for 15 MB), and a large feed's, and the ranking of a
// large text's passages for a question, in a thread the pipeline can terminate and whose
// heap is capped, so the process's event loop keeps answering meanwhile (html-pool.ts).
import { parentPort } from 'node:worker_threads';
import { classifyPage, pageSimilarity } from './classify';
import { FetchError } from './errors';
import { readFeed } from './feed';
import { extractArticle, extractLinks, extractMeta } from './html';
import type { ArticlePart, HtmlReply, HtmlRequest } from './html-pool';
import { answer as answerQuestion } from './question';

function answer(msg: HtmlRequest): Omit<HtmlReply, 'id'> {
  switch (msg.op) {
    case 'article': {
      const a = extractArticle(msg.html, msg.url);
      const parts: Partial<Record<ArticlePart, string>> = {};
      for (const p of msg.parts) parts[p] = a[p];
      return { article: { title: a.title, byline: a.byline, lang: a.lang, excerpt: a.excerpt, ...parts } };
    }
    case 'links':
      return { links: extractLinks(msg.html, msg.url) };
    case 'meta':
      return { meta: extractMeta(msg.html, msg.url) };
    case 'classify':
      return { classification: classifyPage({ ...msg.input, html: msg.html, url: msg.url }) };
    case 'similarity':
      return { similarity: pageSimilarity(msg.html, msg.other, msg.echoes) };
    case 'feed':
      return { feed: readFeed(msg.source, msg.mode, msg.url) };
    case 'answer':
      return { answer: answerQuestion(msg.html, msg.question, msg.context) };
  }
}

parentPort!.on('message', (msg: HtmlRequest & { id: number }) => {
  let reply: Omit<HtmlReply, 'id'>;
  try {
    reply = answer(msg);
  } catch (err) {
    // A FetchError (too deep) crosses as its parts and is made again on the other side.
    reply = { error: err instanceof FetchError ? err.toInfo() : { message: String((err as Error | undefined)?.message ?? err) } };
  }
  parentPort!.postMessage({ id: msg.id, ...reply });
});
