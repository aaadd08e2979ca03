/**
 * The 'paywall' warning ("paywalled: the page says its article is for subscribers … only a
 * short part of it came back") through the real wiring (store, batch runner, fetcher) against
 * a loopback server. A short article that came back whole was warned paywalled where the page
 * carried a newsletter's "Subscribe now to keep reading" that is no wall. Pages from
 * test/fixtures/outcomes (real corpus material, composed as its README says).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Runner } from '../../src/main/batch';
import type { Job, Result } from '../../src/shared/types';
import { startSite, type Site } from '../helpers/sites';
import { terminal } from '../helpers/store';
import { withLoopbackRig } from '../helpers/runner';

const FIX = path.resolve(__dirname, '../fixtures/outcomes/pages');
const page = (file: string): string => readFileSync(path.join(FIX, file), 'utf8');
const serve = (html: string) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);

/** A paywall's box under a teaser, with no way to read on but to subscribe or sign in. */
const WALL =
  '<div class="paywall"><h2>Subscribe to continue reading</h2><p><a href="/subscribe">Subscribe</a> Already a subscriber? <a href="#" class="sign-in">Sign in</a></p></div>';

/** A site's state listing other stories with their lengths in words (most read), ahead of the article's own markup. */
const mostRead = (...counts: number[]): string =>
  `<script>window.__STATE__ = {"mostRead":[${counts.map((n, i) => `{"headline":"Story ${i}","url":"/story/${i}","wordCount":${n}}`).join(',')}]};</script>`;
/** The article's own JSON-LD: for subscribers (a metered site marks every article so), of about its 431 words. */
const METERED = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","isAccessibleForFree":false,"wordCount":440}</script>';

/** The markup naming the part of the article that is not free: its body, the element the page keeps its text in. */
const PAID_PART =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","isAccessibleForFree":false,"hasPart":{"@type":"WebPageElement","isAccessibleForFree":false,"cssSelector":".articleBody"}}</script>';

let site: Site;
beforeAll(async () => {
  const modal = page('ok_short_article_with_newsletter_modal.html');
  // The same page with its article cut after its first sentence, a wall's box in the rest's place: a teaser.
  const teaser = modal.replace(/(última corrida!<\/span><\/p>)[\s\S]*?36 corridas\.<\/p>/, `$1${WALL}`);
  site = await startSite({
    '/modal': serve(modal),
    '/script-strings': serve(page('ok_short_article_with_comment_script_strings.html')),
    '/teaser': serve(teaser),
    '/metered': serve(modal.replace('<head>', `<head>${mostRead(3200, 900)}${METERED}`)),
    '/teaser-with-briefs': serve(teaser.replace('<head>', `<head>${mostRead(300, 3200)}`)),
    '/metered-part': serve(modal.replace('<head>', `<head>${PAID_PART}`)),
    '/teaser-part': serve(teaser.replace('<head>', `<head>${PAID_PART}`)),
  });
});
afterAll(async () => {
  await site?.close();
});


// Generous: CI's machines are busy, and a job that never ends fails the test either way.
const finished = (runner: Runner, id: string): Promise<Job> => terminal(runner, id, 60_000);

/** The results of one batch of these paths of the site, fetched without rendering through the real wiring. */
async function fetched(paths: string[]): Promise<Result[]> {
  let results: Result[] = [];
  await withLoopbackRig('sift-paywall-', async (runner, store) => {
    const { id } = runner.submit({ name: 'test' }, 'test', paths.map((p) => ({ url: `${site.base}${p}`, options: { render: 'never' as const } })));
    expect((await finished(runner, id)).status).toBe('done');
    results = paths.map((_, i) => store.targetResult(id, i)!.result!);
  });
  return results;
}

// A 42-row standings table under two sentences (1,679 characters, whole) came back
// "paywalled" under a newsletter prompt that offers to read on, and under the same words
// as a comment script's strings.
test('a short article whole under a newsletter prompt, or with its words in a script, is not paywalled; a teaser over a wall still is', async () => {
  const results = await fetched(['/modal', '/script-strings', '/teaser']);
  expect(results.map((r) => r.meta?.warnings)).toEqual([undefined, undefined, ['paywall']]);
  // The whole table came back, to its last row.
  for (const r of results.slice(0, 2)) expect(r.content).toMatch(/\| 40 +\| Casey Mears \|/);
  expect(results[2]!.content).not.toMatch(/Kyle Busch/);
});

// The first wordCount of a page was read as its article's: the whole article under a longer
// story's count (3,200 words) was warned paywalled, and a teaser under a brief's (300) came back
// as whole.
test("a page's length in words is its article's own, not another story's listed ahead of it", async () => {
  const results = await fetched(['/metered', '/teaser-with-briefs']);
  expect(results.map((r) => r.meta?.warnings)).toEqual([undefined, ['paywall']]);
  expect(results[0]!.content).toMatch(/\| 40 +\| Casey Mears \|/);
});

// Without a wordCount, a short article (1,823 characters) whole under the markup of a metered
// site, its part marked not free in the page with all its text, was warned paywalled.
test('a short article whose part marked not free came with it is not paywalled; the teaser without that part still is', async () => {
  const results = await fetched(['/metered-part', '/teaser-part']);
  expect(results.map((r) => r.meta?.warnings)).toEqual([undefined, ['paywall']]);
  expect(results[0]!.content).toMatch(/\| 40 +\| Casey Mears \|/);
});
