import { describe, expect, it } from 'vitest';
import { domainToASCII, domainToUnicode } from 'node:url';
import { bareAddress, cutAddress } from '../../src/renderer/src/lib/format';
import { decodePunycode, readableHost, readableUrl } from '../../src/shared/readable-url';

describe('URLs shown as the address bar shows them', () => {
  it('shows an IDN host in its own letters and a UTF-8 path as its characters in the target table', () => {
    // As Sift stores them: WHATWG URL's serialisation of https://例え.jp/パス?q=straße and friends.
    expect(bareAddress('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=stra%C3%9Fe')).toBe('例え.jp/パス?q=straße');
    expect(bareAddress('https://xn--d1abbgf6aiiy.xn--p1ai/')).toBe('президент.рф');
    expect(bareAddress('https://xn--bcher-kva.example/%C3%BCber#kapitel-2')).toBe('bücher.example/über');
    expect(readableUrl('http://xn--hxargifdar.gr:8080/%CE%B1')).toBe('http://ελληνικά.gr:8080/α');
  });

  it('keeps encoded what could mislead: look-alike and mixed-script hosts, emoji, ASCII escapes, invisible and direction characters', () => {
    // аррӏе.com: all Cyrillic letters that pass for Latin ones.
    expect(readableUrl(`https://${domainToASCII('аррӏе.com')}/`)).toBe('https://xn--80ak6aa92e.com/');
    // pаypal.com with one Cyrillic а among Latin letters.
    const mixed = domainToASCII('pаypal.com');
    expect(readableUrl(`https://${mixed}/`)).toBe(`https://${mixed}/`);
    expect(readableUrl('https://xn--ls8h.la/')).toBe('https://xn--ls8h.la/');
    // A %2F is not a path separator, a %20 not a visible space, U+202E turns the text after it around.
    expect(readableUrl('https://a.example/x%2Fy%20z/%E2%80%AEgpj.exe')).toBe('https://a.example/x%2Fy%20z/%E2%80%AEgpj.exe');
    // Bytes that are not UTF-8, and a label that is not Punycode, stay as they came.
    expect(readableUrl('https://a.example/caf%E9')).toBe('https://a.example/caf%E9');
    expect(readableUrl('https://xn--zz!.example/')).toBe('https://xn--zz!.example/');
    expect(readableUrl('not a url')).toBe('not a url');
  });

  it('shows an allowed host (Settings) as typed, its leading dot kept, a look-alike one encoded', () => {
    expect(readableHost('xn--bcher-kva.example')).toBe('bücher.example');
    expect(readableHost('.xn--bcher-kva.example')).toBe('.bücher.example');
    expect(readableHost(domainToASCII('аррӏе.com'))).toBe('xn--80ak6aa92e.com');
    expect(readableHost('[fd00::5]')).toBe('[fd00::5]');
  });

  it('decodes Punycode as Node’s own IDNA does', () => {
    for (const name of ['例え.jp', 'bücher.example', 'президент.рф', 'ελληνικά.gr', '中国.中国', '한국.kr', 'faß.de', 'mañana.com', 'ほげ.jp', 'موقع.وزارة-الاتصالات.مصر', 'उदाहरण.परीक्षा']) {
      const ascii = domainToASCII(name);
      const decoded = ascii
        .split('.')
        .map((l) => (l.startsWith('xn--') ? decodePunycode(l.slice(4)) : l))
        .join('.');
      expect(decoded, name).toBe(domainToUnicode(ascii));
    }
    expect(decodePunycode('ls8h')).toBe('💩');
    expect(decodePunycode('99999999999999')).toBeUndefined();
  });
});

describe('an address cut to a narrow line', () => {
  it('keeps its host whole and cuts its path in the middle, the last part kept', () => {
    const bare = '127.0.0.1:36899/annual-reports/of-the-harbour-board/quarterly-statement-of-accounts-final';
    const cut = cutAddress(bare, 30);
    expect(cut).toBe('127.0.0.1:36899/annual…s-final');
    expect(cut).toHaveLength(30);
  });
  it('is cut in its middle whole where the host leaves the path too few characters', () => {
    expect(cutAddress('a-very-long-host-name.example.org/reports/final', 24)).toBe('a-very-long-…ports/final');
  });
  it('is left whole when it fits', () => {
    expect(cutAddress('example.org/a', 13)).toBe('example.org/a');
  });
  // A job's table at 1280 px read "127.0.0.1:39…/fetch.html" and "127.0.0.1:39…7/next.html": a
  // port cut in its middle names no site, and one cut differently in each row reads as two sites.
  it('never shows part of a port, at any length, and keeps host:port and the last path part whole where they fit', () => {
    const host = '127.0.0.1:39197';
    for (const path of ['/fetch.html', '/inline.html', '/page/next.html', '/ssrf.html', '/annual-reports/of-the-board/statement-final', '/a']) {
      const bare = `${host}${path}`;
      const last = path.slice(path.lastIndexOf('/'));
      for (let max = 8; max < bare.length; max++) {
        const cut = cutAddress(bare, max);
        expect(cut.length, cut).toBeLessThanOrEqual(max);
        // "127.0.0.1:39197/…/fetch.html", else "127.0.0.1…/fetch.html": what tells a site's pages apart comes first.
        if (max >= host.length + 2 + last.length) expect(cut.startsWith(`${host}/`) && cut.endsWith(last), cut).toBe(true);
        else if (max >= '127.0.0.1…'.length + last.length) expect(cut.startsWith('127.0.0.1…/') && path.endsWith(cut.slice(10)) && cut.endsWith(last), cut).toBe(true);
        // A last part too long to keep: the host whole while the path keeps 8 characters.
        else if (max - host.length >= 8) expect(cut.startsWith(`${host}/`), cut).toBe(true);
        const [head = '', tail = ''] = cut.split('…');
        // Before the cut: the host whole, or no more of it than "127.0.0.1", its colon and port not begun.
        expect(head.startsWith(host) || head.length <= host.indexOf(':'), cut).toBe(true);
        // After it: the path alone, or the colon and the port whole with it.
        expect(path.endsWith(tail) || tail.startsWith(':39197'), cut).toBe(true);
      }
    }
  });
  // The 1280 px table read "127.0.0.1:40221/mis…g/3": a last part of a character or two names no
  // page, so the part before it is kept whole with it, before the port.
  it('keeps a short last part with the part before it, the port dropped first', () => {
    expect(cutAddress('127.0.0.1:40221/missing/3', 23)).toBe('127.0.0.1…/missing/3');
    expect(cutAddress('127.0.0.1:40221/reports/annual/en', 24)).toBe('127.0.0.1…/annual/en');
    expect(cutAddress('127.0.0.1:40221/items/2', 20)).toBe('127.0.0.1…/items/2');
    // A last part that names its page keeps host:port before it, as before.
    expect(cutAddress('127.0.0.1:40221/missing/page', 26)).toBe('127.0.0.1:40221/miss…/page');
    // Where the two parts do not fit beside the host, the last alone.
    const alone = cutAddress('127.0.0.1:40221/a-very-long-folder-name/3', 22);
    expect(alone.startsWith('127.0.0.1:40221/') && alone.endsWith('/3') && alone.length <= 22, alone).toBe(true);
  });
  // The 1280 px table read "127.0.0.2:37857/blo…d-1" for "/blog/2019/a-post-that-moved-1": half a
  // word on each side of the cut, neither naming the page.
  it('cuts a long last part between its pieces where that shows more of it than the middle cut', () => {
    expect(cutAddress('127.0.0.2:37857/blog/2019/a-post-that-moved-1', 23)).toBe('127.0.0.2…that-moved-1');
    expect(cutAddress('127.0.0.2:37857/blog/2019/a-post-that-moved-1', 26)).toBe('127.0.0.2:37857/…moved-1');
    expect(cutAddress('127.0.0.1:45225/lighthouse/keepers-of-rannoch-point-in-the-county_archive', 24)).toBe('127.0.0.1:45225/…archive');
    // A file's type with the piece before it: "127.0.0.1:36899/…html" named no page (the middle cut: "…/rep…html").
    expect(cutAddress('127.0.0.1:36899/reports/harbour-annual.html', 24)).toBe('127.0.0.1…annual.html');
  });
  // Cut between pieces, "/news/challenge-page" read "127.0.0.1…page" in 22 units where the
  // middle cut's "127.0.0.1…lenge-page" shows the same piece and more of the word before it.
  it('keeps the middle cut where the cut between pieces would show less', () => {
    expect(cutAddress('127.0.0.1:39197/news/challenge-page', 22)).toBe('127.0.0.1…lenge-page');
    expect(cutAddress('127.0.0.2:37857/blog/2019/a-post-that-moved-1', 20)).toBe('127.0.0.2…t-moved-1');
  });
  it('cuts the host of every row of one site at one place, whatever each path is', () => {
    // fitText gives each row the most characters that fit its column: 18 to 22 of them, by their letters' widths.
    const paths = ['/fetch.html', '/inline.html', '/next.html', '/a-much-longer-path/of-many-parts'];
    const heads = new Set(paths.flatMap((p) => [18, 19, 20, 21, 22].map((max) => cutAddress(`127.0.0.1:39197${p}`, max).split('…')[0])));
    expect([...heads]).toEqual(['127.0.0.1']);
  });
  it('keeps an IPv6 host with its port whole, and cuts it before its port where it cannot be', () => {
    expect(cutAddress('[::1]:8080/reports/annual/final', 24)).toBe('[::1]:8080/report…/final');
    expect(cutAddress('[::1]:8080/reports/annual/final', 14).split('…')[0]).toBe('[::1]');
  });
});
