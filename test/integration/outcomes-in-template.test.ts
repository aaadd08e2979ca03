/**
 * Stand-ins inside a site's whole template, and a sign-in wall over a teaser, through the
 * real wiring (store, batch runner, fetcher) against a loopback server: a block page or a
 * sign-in page wrapped in a site's navigation, footer and lists of headlines came back "ok",
 * the links' text counted as the page's. Pages from test/fixtures/outcomes (real corpus material, composed as its README says).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Runner } from '../../src/main/batch';
import type { Job } from '../../src/shared/types';
import { startSite, type Site } from '../helpers/sites';
import { terminal } from '../helpers/store';
import { withLoopbackRig } from '../helpers/runner';

const FIX = path.resolve(__dirname, '../fixtures/outcomes/pages');
const served = (file: string) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(FIX, file)));

/**
 * A blog theme's comment area, where posting a comment asks for a sign-in: WordPress's
 * #comments / #respond markup with its wp_login_form(), inside the post's <article>.
 */
const COMMENT_SIGN_IN =
  '<div id="comments" class="comments-area"><div id="respond" class="comment-respond"><h3 id="reply-title" class="comment-reply-title">Leave a Reply</h3>' +
  '<p class="must-log-in">You must be logged in to post a comment.</p><form name="loginform" id="loginform" action="/wp-login.php" method="post">' +
  '<p class="login-username"><label for="user_login">Username or Email Address</label><input type="text" name="log" id="user_login"></p>' +
  '<p class="login-password"><label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass"></p>' +
  '<p class="login-submit"><input type="submit" name="wp-submit" value="Log In"></p></form></div></div>';

/** A page of the fixtures whose <title> says only what `title` gives: nothing, or the site's name. */
const retitled = (file: string, title: (page: string) => string) => (_req: unknown, res: ServerResponse) => {
  const page = readFileSync(path.join(FIX, file), 'utf8');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.replace(/<title>[^<]*<\/title>/, `<title>${title(page)}</title>`));
};

let site: Site;
beforeAll(async () => {
  site = await startSite({
    '/blocked-in-template': served('challenge_akamai_access_denied_in_site_template.html'),
    '/signin-in-template': served('login_github_signin_in_site_template.html'),
    '/brief-with-consent-overlay': served('ok_short_news_brief_with_consent_overlay.html'),
    '/brief-with-signin-box': served('ok_short_article_with_returning_signin_form.html'),
    '/brief-with-signin-page-at-foot': served('ok_short_news_brief_with_signin_page_at_foot.html'),
    '/howto-with-signin-page-at-foot': served('ok_short_howto_russian_with_signin_page_at_foot.html'),
    '/japanese-not-found-in-template': served('soft404_japanese_not_found_in_site_template.html'),
    '/teaser': served('ok_teaser_trade_news_opening_then_signin_form.html'),
    '/thin-teaser': served('ok_teaser_science_news_opening_then_signin_form.html'),
    ...Object.fromEntries(
      ['challenge_akamai_access_denied_in_site_template.html', 'soft404_japanese_not_found_in_site_template.html'].flatMap((file) => [
        [`/blank-title/${file}`, retitled(file, () => '')],
        [`/site-title/${file}`, retitled(file, (page) => /<meta property="og:site_name" content="([^"]+)"/.exec(page)?.[1] ?? 'no site name')],
      ]),
    ),
    '/brief-with-comment-signin': (_req: unknown, res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(FIX, 'ok_short_news_brief_with_consent_overlay.html'), 'utf8').replace('</article>', `${COMMENT_SIGN_IN}</article>`)),
  });
});
afterAll(async () => {
  await site.close();
});

// Generous: CI's machines are busy, and a job that never ends fails the test either way.
const finished = (runner: Runner, id: string): Promise<Job> => terminal(runner, id, 60_000);


test('a block page or a sign-in page inside the site template fails with its reason; a short article with a consent overlay is ok', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const urls = ['/blocked-in-template', '/signin-in-template', '/brief-with-consent-overlay'].map((p) => ({ url: `${site.base}${p}`, options: { render: 'never' as const } }));
    const { id } = runner.submit({ name: 'test' }, 'test', urls);
    expect((await finished(runner, id)).status).toBe('partial');
    const rows = store.targetRows(id);
    expect(rows[0]).toMatchObject({ status: 'failed', reason: 'challenge', error: 'challenge: the site answered with an anti-bot check instead of the page' });
    expect(rows[0]!.hint).toMatch(/Open the URL in a browser to pass the check, or try again later/);
    expect(rows[1]).toMatchObject({ status: 'failed', reason: 'login', error: 'login: the site answered with a sign-in page instead of the page' });
    expect(rows[1]!.hint).toMatch(/The page needs an account: open it in a browser and sign in/);
    expect(rows[2]).toMatchObject({ status: 'done' });
    expect(store.targetResult(id, 2)!.result!.content).toMatch(/stabbed/);
  });
});

test('a short news brief with a sign-in box that sends the visitor back is the brief, not a sign-in wall', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const { id } = runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/brief-with-signin-box`, options: { render: 'never' as const } }]);
    expect((await finished(runner, id)).status).toBe('done');
    expect(store.targetResult(id, 0)!.result!.content).toMatch(/Release Clause/);
  });
});

// A sign-in page's "Sign in" h1 and form at the foot of a short brief, under its headline and
// its words, failed the brief as a sign-in wall (the h1 named the page as a sign-in's heading).
test('a short brief or how-to with a sign-in heading and form at its foot is the page, not a sign-in wall', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const urls = ['/brief-with-signin-page-at-foot', '/howto-with-signin-page-at-foot'].map((p) => ({ url: `${site.base}${p}`, options: { render: 'never' as const } }));
    const { id } = runner.submit({ name: 'test' }, 'test', urls);
    expect((await finished(runner, id)).status).toBe('done');
    expect(store.targetResult(id, 0)!.result!.content).toMatch(/Kepa Arrizabalaga/);
    expect(store.targetResult(id, 1)!.result!.content).toMatch(/player\.setav speedmult/);
  });
});

test('a Japanese not-found page inside the site template, its title in kana, fails as a missing page', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const { id } = runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/japanese-not-found-in-template`, options: { render: 'never' as const } }]);
    expect((await finished(runner, id)).status).toBe('failed');
    expect(store.targetRows(id)[0]).toMatchObject({ status: 'failed', reason: 'soft404', error: 'soft 404: the page says it does not exist, though the server answered with success' });
    expect(store.targetRows(id)[0]!.hint).toMatch(/^Check the URL for typos or a moved page/);
  });
});

// A sign-in wall over a teaser: an article's first paragraph with a sign-in form where the
// rest of its text was came back "ok", with no word (or only "thin page") that the rest was
// behind the form.
test('a teaser over a sign-in form is ok with the teaser warning (not thin); a short brief with a sign-in box beside it has none', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const urls = ['/teaser', '/thin-teaser', '/brief-with-signin-box'].map((p) => ({ url: `${site.base}${p}`, options: { render: 'never' as const } }));
    const { id } = runner.submit({ name: 'test' }, 'test', urls);
    expect((await finished(runner, id)).status).toBe('done');
    const warnings = [0, 1, 2].map((i) => store.targetResult(id, i)!.result!.meta?.warnings);
    expect(warnings).toEqual([['teaser'], ['teaser'], undefined]);
    // The opening came back: the teaser is part of the article, not a failure.
    expect(store.targetResult(id, 0)!.result!.content).toMatch(/Breaking with decades of United States policy/);
  });
});

// A short post whose comment area asks commenters to sign in came back with the teaser
// warning ("the rest is behind a sign-in"), though the whole post was there.
test('a short article whose comment area inside the <article> has a sign-in form is ok without the teaser warning', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const { id } = runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/brief-with-comment-signin`, options: { render: 'never' as const } }]);
    expect((await finished(runner, id)).status).toBe('done');
    const result = store.targetResult(id, 0)!.result!;
    expect(result.content).toMatch(/stabbed/);
    expect(result.meta?.warnings ?? []).not.toContain('teaser');
  });
});

// The rules leaned on the <title>: in its site's template (navigation, footer, lists of
// headlines), a block page or a not-found page whose title was blank, or only the site's
// name, came back ok.
test('a block page or a not-found page inside the site template, its title blank or only the site name, fails with its reason', async () => {
  await withLoopbackRig('sift-template-', async (runner, store) => {
    const files = ['challenge_akamai_access_denied_in_site_template.html', 'soft404_japanese_not_found_in_site_template.html'];
    const urls = ['blank-title', 'site-title'].flatMap((how) => files.map((f) => ({ url: `${site.base}/${how}/${f}`, options: { render: 'never' as const } })));
    const { id } = runner.submit({ name: 'test' }, 'test', urls);
    expect((await finished(runner, id)).status).toBe('failed');
    expect(store.targetRows(id).map((r) => r.reason)).toEqual(['challenge', 'soft404', 'challenge', 'soft404']);
  });
});

/** The page's own headline as Open Graph keeps it: what a template left on a stand-in may still be titled. */
const ogTitle = (page: string): string => /<meta property="og:title" content="([^"]+)"/.exec(page)?.[1] ?? 'no headline';
const siteName = (page: string): string => /<meta property="og:site_name" content="([^"]+)"/.exec(page)?.[1] ?? 'no site name';
const titles: Record<string, (page: string) => string> = { own: (page) => /<title>([^<]*)<\/title>/.exec(page)?.[1] ?? '', blank: () => '', site: siteName, headline: ogTitle };

/** Each of `file` under each title of `how`, through the runner: the stored reasons, in that order. */
async function reasonsUnderTitles(file: string, how: string[]): Promise<(string | undefined)[]> {
  const routes = Object.fromEntries(how.map((h) => [`/${h}/${file}`, retitled(file, titles[h]!)]));
  const extra = await startSite(routes);
  try {
    let reasons: (string | undefined)[] = [];
    await withLoopbackRig('sift-template-', async (runner, store) => {
      const { id } = runner.submit({ name: 'test' }, 'test', how.map((h) => ({ url: `${extra.base}/${h}/${file}`, options: { render: 'never' as const } })));
      await finished(runner, id);
      reasons = store.targetRows(id).map((r) => r.reason || r.status);
    });
    return reasons;
  } finally {
    await extra.close();
  }
}

// A registrar's parking page inside a site's template came back ok under every title: the
// parked words were read only on a page short in all (the template's links made it long) and
// never on a page marked as an article (the template's og:type).
test('a parked-domain page inside the site template fails as a missing page, whatever its title', async () => {
  expect(await reasonsUnderTitles('soft404_parked_domain_in_site_template.html', ['own', 'blank', 'site', 'headline'])).toEqual(['soft404', 'soft404', 'soft404', 'soft404']);
});

// An "Access Denied … You don't have permission to access" block served with 200 in the
// template, still titled with the article's headline: the title named no stand-in, so the
// block's own heading was never read.
test("an access-denied page inside the site template, titled with the article's headline, fails as a block", async () => {
  expect(await reasonsUnderTitles('challenge_akamai_access_denied_in_site_template.html', ['headline'])).toEqual(['challenge']);
});

// A sign-in page whose 'Sign in to …' is only a <p> over a password form with no return link,
// in the template, its title blank or the site's name: it came back ok.
test('a sign-in page inside the site template, its title blank or only the site name, fails as a sign-in wall', async () => {
  expect(await reasonsUnderTitles('login_github_signin_in_site_template.html', ['blank', 'site'])).toEqual(['login', 'login']);
});

// A 'Before you continue...' consent wall in a site's template, where the article's headline
// was, came back ok under any title: the wall was read only on a page short in all, and the
// template's links made it long.
test('a consent wall inside the site template fails as a consent wall, whatever its title', async () => {
  expect(await reasonsUnderTitles('consent_yahoo_before_you_continue_in_site_template_site_name_title.html', ['own', 'blank', 'headline'])).toEqual(['consent', 'consent', 'consent']);
});
