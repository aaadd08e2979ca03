/**
 * A sign-in wall over a teaser, through the real wiring (store, batch runner, fetcher) against
 * a loopback server: an article's first paragraph with a sign-in form where the rest of its
 * text was came back "ok", with no word (or only "thin page") that the rest was behind the
 * form. Pages from test/fixtures/outcomes (real corpus material, composed as its README says).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/main/store';
import { createFetcher } from '../../src/main/fetch';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import type { Runner } from '../../src/main/batch';
import { isTerminal, type Job } from '../../src/shared/types';
import { startSite, type Site } from '../helpers/sites';

const FIX = path.resolve(__dirname, '../fixtures/outcomes/pages');
const served = (file: string) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(FIX, file)));

let site: Site;
beforeAll(async () => {
  site = await startSite({
    '/teaser': served('ok_teaser_trade_news_opening_then_signin_form.html'),
    '/thin-teaser': served('ok_teaser_science_news_opening_then_signin_form.html'),
    '/brief-with-signin-box': served('ok_short_article_with_returning_signin_form.html'),
  });
});
afterAll(async () => {
  await site.close();
});

function finished(runner: Runner, id: string): Promise<Job> {
  return new Promise((resolve) => {
    const now = runner.status(id)?.job;
    if (now && isTerminal(now.status)) return resolve(now);
    const off = runner.on('job', (j) => {
      if (j.id === id && isTerminal(j.status)) {
        off();
        resolve(j);
      }
    });
  });
}

test('a teaser over a sign-in form is ok with the teaser warning (not thin); a short brief with a sign-in box beside it has none', async () => {
  const store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-teaser-')), 'sift.db'));
  const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] }, { lookup: async () => [{ address: '127.0.0.1', family: 4 as const }], log: silentLog() });
  const runner = createBatchRunner(store, fetcher, {}, new BatchMetrics(), silentLog());
  try {
    const urls = ['/teaser', '/thin-teaser', '/brief-with-signin-box'].map((p) => ({ url: `${site.base}${p}`, options: { render: 'never' as const } }));
    const { id } = runner.submit({ name: 'test' }, 'test', urls);
    expect((await finished(runner, id)).status).toBe('done');
    const warnings = [0, 1, 2].map((i) => store.targetResult(id, i)!.result!.meta?.warnings);
    expect(warnings).toEqual([['teaser'], ['teaser'], undefined]);
    // The opening came back: the teaser is part of the article, not a failure.
    expect(store.targetResult(id, 0)!.result!.content).toMatch(/Breaking with decades of United States policy/);
  } finally {
    await runner.close();
    await fetcher.close();
    store.close();
  }
});
