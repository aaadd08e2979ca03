import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { hasScriptBundles, shouldRender } from '../../src/main/fetch';
import { extractArticle } from '../../src/main/fetch/html';
import { classifyPage } from '../../src/main/fetch/classify';
import { inScriptOrder } from '../../src/main/fetch/render/decide';

const FIX = path.resolve(__dirname, '../fixtures/render');
const read = (f: string): string => readFileSync(path.join(FIX, f), 'utf8');
// As the pipeline decides: the page classification's needs_js, else the extracted text.
const needsJs = (html: string): boolean => classifyPage({ html, status: 200, url: 'http://example.org/a' }).reason === 'needs_js';
const decide = (mode: 'auto' | 'always' | 'never', html: string) => shouldRender(mode, html, extractArticle(html, 'http://example.org/a').text, needsJs(html));

describe('shouldRender', () => {
  it('renders every client-side-rendered fixture under auto, as an app shell', () => {
    for (const f of ['inline.html', 'fetch.html', 'delay.html', 'module.html', 'next.html', 'busy.html']) expect(decide('auto', read(f)), f).toBe('needs_js');
  });
  it('never renders a page whose article is in the HTML under auto, scripts or not', () => {
    expect(decide('auto', read('static.html'))).toBeUndefined();
  });
  it('renders a thin page that carries script bundles, but not a thin page without scripts', () => {
    const thin = '<html><body><div class="c"><p>Short note.</p></div><script src="/bundle.js"></script></body></html>';
    expect(decide('auto', thin)).toBe('thin_with_scripts');
    expect(decide('auto', '<html><body><p>Short note.</p></body></html>')).toBeUndefined();
  });
  it('always and never are what they say', () => {
    expect(decide('always', read('static.html'))).toBe('always');
    expect(decide('never', read('inline.html'))).toBeUndefined();
  });
  it('sees a noscript asking for JavaScript on a thin page', () => {
    expect(needsJs('<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="x"></div></body></html>')).toBe(true);
  });
  it('does not take server-rendered Next.js state for a shell when its text is on the page', () => {
    const prose = 'The keepers recorded every passing ship, every storm and every failure of the great lamp.';
    const body = Array.from({ length: 6 }, () => `<p>${prose}</p>`).join('');
    const html = `<html><body><div id="__next"><article>${body}</article></div><script id="__NEXT_DATA__" type="application/json">{"props":{"text":"${prose}"}}</script><script src="/_next/main.js"></script></body></html>`;
    expect(needsJs(html)).toBe(false);
    expect(decide('auto', html)).toBeUndefined();
  });
  it('does not count JSON-LD or a short inline snippet as a script bundle', () => {
    expect(hasScriptBundles('<script type="application/ld+json">{"@type":"Article","headline":"x"}</script><script>window.dataLayer=[];</script>')).toBe(false);
    expect(hasScriptBundles('<script type="module">import "./a.js"</script>')).toBe(true);
  });
});

test('the hosts of scripts that failed to load are named in the order the page loads them, not the order they failed in', () => {
  const html = '<html><body><script src="https://a.example:8443/vendor.js"></script><script src="/app.js"></script><script src="https://c.example/chunk.js"></script></body></html>';
  // The browser loads the three side by side: on a busy machine the third may fail first.
  expect(inScriptOrder(['c.example', 'b.example:8080', 'a.example:8443'], html, 'http://b.example:8080/page')).toEqual(['a.example:8443', 'b.example:8080', 'c.example']);
  // A host the page's HTML does not name (a script's own import) comes last, as it came.
  expect(inScriptOrder(['later.example', 'c.example'], html, 'http://b.example:8080/page')).toEqual(['c.example', 'later.example']);
});
