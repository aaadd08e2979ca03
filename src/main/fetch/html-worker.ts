// The HTML worker, where large documents are read (html-pool.ts): a page's parse,
// Readability and turndown (about a second per MB of HTML, most of a gigabyte for 15 MB), a
// feed's entries, a JSON document's parse and layout, and a text's passages ranked for a
// question. The pipeline can terminate this thread and its heap is capped, so the process's
// event loop keeps answering meanwhile.
import { parentPort } from 'node:worker_threads';
import { classifyPage, pageSimilarity } from './classify';
import { FetchError } from './errors';
import * as feeds from './feed';
import { extractArticle, extractLinks, extractMeta } from './html';
import type { ArticlePart, HtmlReply, HtmlRequest } from './html-pool';
import { readJson } from './json-doc';
import { answer as answerQuestion } from './question';

async function answer(msg: HtmlRequest): Promise<Omit<HtmlReply, 'id'>> {
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
      return { feed: feeds.readFeed({ xml: msg.html, format: msg.format }, msg.mode, msg.url) };
    case 'answer':
      return { answer: answerQuestion(msg.html, msg.question, msg.context, msg.markdown) };
    case 'json':
      return { json: await readJson(msg.html, msg.mode, msg.url, () => Promise.resolve(feeds)) };
  }
}

parentPort!.on('message', async (msg: HtmlRequest & { id: number }) => {
  let reply: Omit<HtmlReply, 'id'>;
  try {
    reply = await answer(msg);
  } catch (err) {
    // A FetchError (too deep) crosses as its parts and is made again on the other side.
    reply = { error: err instanceof FetchError ? err.toInfo() : { message: String((err as Error | undefined)?.message ?? err) } };
  }
  parentPort!.postMessage({ id: msg.id, ...reply });
});
