import { describe, expect, it } from 'vitest';
import { cutLabel, jobLabel, listLabel, listPart, rerunLabel } from '../../src/shared/job-label';
import { cutMiddle } from '../../src/shared/cut';

const urls = (...u: string[]) => u.map((url) => ({ url }));

describe('a job named after what its list holds', () => {
  it('names a one-host list by its host and the folder every URL shares', () => {
    expect(listLabel(urls('https://example.org/docs/a', 'https://example.org/docs/b?x=1'))).toBe('example.org/docs');
    expect(listLabel(urls('https://example.org/docs/a', 'https://example.org/blog/b'))).toBe('example.org');
    expect(listLabel(urls('http://127.0.0.1:39401/news/1'))).toBe('127.0.0.1:39401/news');
  });

  // Stored as WHATWG URL writes them, a list of Arabic or Chinese pages was named
  // "127.0.0.1:4000/%D8%AA%D9%82%D8%A7…" in the job list and the header, while its rows showed their own letters.
  it('names a list in the letters its URLs are written in, as the address bar shows them', () => {
    expect(listLabel(urls(new URL('http://127.0.0.1:4000/تقارير-مجلس/report-1').href))).toBe('127.0.0.1:4000/تقارير-مجلس');
    expect(listLabel(urls(new URL('https://例え.jp/年度会议纪要/a').href))).toBe('例え.jp/年度会议纪要');
    // What could mislead stays encoded, as readableUrl leaves it: an encoded "/" is not a folder's end.
    expect(listLabel(urls('https://example.org/a%2Fb/c'))).toBe('example.org/a%2Fb');
  });

  it('names the two most common hosts first, and counts the others', () => {
    expect(listLabel(urls('https://a.org/1', 'https://b.org/1', 'https://b.org/2'))).toBe('b.org, a.org');
    const many = urls('https://c.org/1', 'https://a.org/1', 'https://a.org/2', 'https://b.org/1', 'https://b.org/2', 'https://b.org/3', 'https://d.org/1');
    expect(listLabel(many)).toBe('b.org, a.org and 2 other hosts');
    expect(listLabel(urls('https://a.org/1', 'https://b.org/1', 'https://c.org/1'))).toBe('a.org, b.org and 1 other host');
  });

  it('says the options the whole list shares, and that options differ when they do', () => {
    expect(listLabel([{ url: 'https://a.org/x.json', options: { jq: '.items[].name' } }])).toBe('a.org · jq .items[].name');
    expect(listLabel([{ url: 'https://a.org/1', options: { mode: 'text', grep: 'revenue' } }, { url: 'https://a.org/2', options: { mode: 'text', grep: 'revenue' } }])).toBe('a.org · text, grep “revenue”');
    expect(listLabel([{ url: 'https://a.org/1', options: { question: 'what does it cost?' } }, { url: 'https://a.org/2' }])).toBe('a.org · options per URL');
    // The mode every job has unless told otherwise is not worth its words.
    expect(listLabel([{ url: 'https://a.org/1', options: { mode: 'markdown' } }])).toBe('a.org');
  });

  // Two runs of one dropped file, one plain and one with a grep, were both "links.txt · 2 URLs"
  // in the job list and the header: the file's name said nothing of what was asked.
  it('says what is asked after the name of a file, as after a list’s hosts', () => {
    const plain = urls('https://a.org/1', 'https://a.org/2');
    expect(jobLabel('links.txt', plain)).toBe('links.txt');
    expect(jobLabel('links.txt', plain.map((t) => ({ ...t, options: { grep: 'revenue' } })))).toBe('links.txt · grep “revenue”');
    expect(jobLabel(' ', plain)).toBe('a.org');
    expect(jobLabel(undefined, plain)).toBe('a.org');
    expect(jobLabel('x'.repeat(300), [{ url: 'https://a.org/1' }])).toHaveLength(200);
    expect(jobLabel('x'.repeat(300), [{ url: 'https://a.org/1', options: { mode: 'text' } }])).toBe(`${'x'.repeat(99)}… · text`);
  });

  // `--render always` and the default read alike: "127.0.0.1:4000/news" twice.
  it('says a rendering, context or recovery asked of the whole list', () => {
    const at = (options: object) => [{ url: 'https://a.org/1', options }];
    expect(listLabel(at({ render: 'always' }))).toBe('a.org · render always');
    expect(listLabel(at({ render: 'never', grep: 'x', context: true }))).toBe('a.org · grep “x”, context, render never');
    expect(listLabel(at({ recover: true }))).toBe('a.org · recover');
    expect(listLabel(at({ render: 'auto' }))).toBe('a.org');
  });

  it('stays within the 200 characters a label holds', () => {
    const label = listLabel([{ url: 'https://a.org/1', options: { question: 'q'.repeat(2000) } }]);
    expect(label.length).toBeLessThanOrEqual(200);
    expect(label.startsWith('a.org · question “qqq')).toBe(true);
  });

  // A cut between a surrogate pair left half an emoji, stored as "\uFFFD" and shown as "�".
  it('cuts a long option or name between characters, never inside one', () => {
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    const grep = `ab${'🦀'.repeat(30)}`;
    const label = listLabel([{ url: 'https://example.org/a', options: { grep } }]);
    expect(label).toMatch(/^example\.org · grep “ab(?:🦀)+…”$/u);
    expect(label).not.toMatch(lone);
    const long = `${'x'.repeat(187)}${'🦀'.repeat(20)}`;
    for (const which of ['unfinished', 'failed', 'all'] as const) {
      const again = rerunLabel(long, which);
      expect(again).not.toMatch(lone);
      expect(again.length).toBeLessThanOrEqual(200);
    }
    expect(rerunLabel(long, 'failed', 'timeout')).not.toMatch(lone);
  });

  it('names a run again after the job it came from, and what of it runs', () => {
    expect(rerunLabel('a.org/docs', 'unfinished')).toBe('rest of a.org/docs');
    expect(rerunLabel('a.org/docs', 'failed')).toBe('retry of a.org/docs');
    expect(rerunLabel('a.org/docs', 'failed', 'timeout')).toBe('retry of a.org/docs (timed out)');
    expect(rerunLabel('a.org/docs', 'all')).toBe('again: a.org/docs');
  });
});

describe('a job name cut to fit the job list', () => {
  // A list of one host's pages, none in a shared folder, is named by its host: cut in its
  // middle, the 800 px list read "127.0…3403", digits of an address and of a port.
  it("drops a lone host's port before cutting it, and keeps its start", () => {
    expect(cutLabel('127.0.0.1:43403', 10)).toBe('127.0.0.1');
    expect(cutLabel('127.0.0.1:43403', 8)).toBe('127.0.0…');
    expect(cutLabel('docs.example.org:8080', 12)).toBe('docs.exampl…');
    expect(cutLabel('[::1]:8080', 6)).toBe('[::1]');
    expect(cutLabel('rest of 127.0.0.1:43403', 17)).toBe('rest of 127.0.0.1');
    expect(cutLabel('rest of 127.0.0.1:43403', 16)).toBe('rest of 127.0.0…');
    expect(cutLabel('127.0.0.1:43403 · text', 12)).toBe('127.0.0.1');
    for (let max = 2; max < 15; max++) expect(cutLabel('127.0.0.1:43403', max)).not.toMatch(/:|\d…\d/);
  });
  // Cut in its middle, "rest of docs.example.org/guide · options per URL" read "rest of … per
  // URL": the host, what tells one job from another, was the part taken out.
  it('keeps the hosts whole and cuts what is asked at its end', () => {
    const label = rerunLabel(listLabel([
      { url: 'https://docs.example.org/guide/a', options: { grep: 'x' } },
      { url: 'https://docs.example.org/guide/b', options: { jq: '.a' } },
    ]), 'unfinished');
    expect(label).toBe('rest of docs.example.org/guide · options per URL');
    expect(cutLabel(label, 36)).toBe('rest of docs.example.org/guide · op…');
    expect(cutLabel(label, 32)).toBe('rest of docs.example.org/guide…');
  });
  it('cuts the hosts in their middle only when they alone do not fit', () => {
    const label = 'rest of 127.0.0.1:41234/quarterly-minutes · grep “revenue”';
    expect(cutLabel(label, 24)).toBe('rest of …/quarter…inutes');
    // The list's 16 characters at 1024 px: "rest of" whole, and of the folder what there is room for.
    expect(cutLabel(label, 17)).toBe('rest of …/qua…tes');
    expect(cutLabel('quarterly-report-2026.csv', 12)).toBe('quarte…6.csv');
    expect(cutLabel(label, 200)).toBe(label);
  });
  // Cut in the middle of host and folder together, "127.0.0.1:41234/quarterly-minutes" and
  // "…/annual-board-meeting-minutes" both read "127.0.0.…-minutes" in the list's 17 characters
  // at 1024 px: the host they share and the tail they share, the folder's own words gone.
  it("gives the folder, what tells one host's lists apart, the room before the host", () => {
    const quarterly = '127.0.0.1:41234/quarterly-minutes';
    const annual = '127.0.0.1:41234/annual-board-meeting-minutes';
    expect(cutLabel(quarterly, 17)).toBe('…/quarter…minutes');
    expect(cutLabel(annual, 17)).toBe('…/annual-…minutes');
    // At 16 the end kept starts at its word, "…/annual…minutes", not "…/annual-…inutes".
    expect(cutLabel(annual, 16)).toBe('…/annual…minutes');
    for (let max = 9; max < annual.length; max++) {
      expect(cutLabel(annual, max).length).toBeLessThanOrEqual(max);
      expect(cutLabel(annual, max)).not.toBe(cutLabel(quarterly, max));
    }
    // The folder whole while the host's first four characters fit beside it; "www." says nothing.
    expect(cutLabel(quarterly, 27)).toBe('127.0.0.…/quarterly-minutes');
    expect(cutLabel('www.harbour-board.example/minutes', 20)).toBe('harbour-boa…/minutes');
    expect(cutLabel('b.example/😀😀😀-minutes', 12)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

// Cut in its middle, a list of two loopback sites read "127.…1901" in the 800 px job list's 10
// characters: the start of one host and the end of the other, neither of them named.
describe('a list of several hosts cut to fit the job list', () => {
  it('names its first host and counts the others', () => {
    expect(cutLabel('a.org, b.org and 3 other hosts', 12)).toBe('a.org +4');
    expect(cutLabel('a.org, b.org and 3 other hosts', 20)).toBe('a.org, b.org +3');
    expect(cutLabel('docs.example.org, b.org', 12)).toBe('docs.exa… +1');
    expect(cutLabel('www.harbour.example, b.org', 15)).toBe('harbour.exa… +1');
    // A dot just before the "…" read as an address broken off: "127.0.… +1" in the 800 px list.
    expect(cutLabel('127.0.0.1:41234, 127.0.0.1:41901', 10)).toBe('127.0… +1');
    // Too narrow for the count: the first host's start alone, never its start beside the other's end.
    expect(cutLabel('127.0.0.1:41234, 127.0.0.1:41901', 9)).toBe('127.0… +1');
    expect(cutLabel('127.0.0.1:41234, 127.0.0.1:41901', 6)).toBe('127.0…');
    // The port goes before the host is cut: "rest of 127.0.0.… +1" had room for "127.0.0.1".
    expect(cutLabel('rest of 127.0.0.1:41234, 127.0.0.1:41901 · grep “x”', 20)).toBe('rest of 127.0.0.1 +1');
    for (let max = 9; max < 40; max++) expect(cutLabel('a.example.org, b.example.org and 12 other hosts', max).length).toBeLessThanOrEqual(max);
  });
  // The app shows a name without its port where no other job has the host at another port
  // (shownLabel); cut in its middle then, the 900 px job list read "rest …0.0.1".
  it('cuts a lone IP address without its port at its end, as with it', () => {
    expect(cutLabel('rest of 127.0.0.1', 11)).toBe('rest of 12…');
    expect(cutLabel('127.0.0.1', 8)).toBe('127.0.0…');
    expect(cutLabel('[::1]', 4)).toBe(cutLabel('[::1]:8080', 4));
    for (let max = 2; max < 17; max++) expect(cutLabel('rest of 127.0.0.1', max)).toBe(cutLabel('rest of 127.0.0.1:34519', max));
    // A file's or a site's name is cut as before: a name alone does not say it is a host.
    expect(cutLabel('links.txt', 6)).toBe(cutMiddle('links.txt', 6));
  });
  it('never ends a host cut at its end with a dot or a colon before the "…"', () => {
    const names = ['127.0.0.1:41234, 127.0.0.2:41901', 'rest of 127.0.0.1:41234, 127.0.0.2:41901', 'docs.example.org:8080, b.org and 2 other hosts', '127.0.0.1:43403', 'rest of 127.0.0.1:43403', '[::1]:8080, [::2]:8080'];
    for (const name of names) {
      for (let max = 4; max < name.length; max++) {
        const cut = cutLabel(name, max);
        expect(cut.length, cut).toBeLessThanOrEqual(max);
        expect(cut, `${name} in ${max}`).not.toMatch(/[.:]…/);
      }
    }
  });
  it('leaves a file whose name has a comma to be cut as a name', () => {
    expect(cutLabel('Smith, John - notes.txt', 12)).toBe(cutMiddle('Smith, John - notes.txt', 12));
    expect(cutLabel('Smith, Jones.txt', 12)).toBe(cutMiddle('Smith, Jones.txt', 12));
  });
});

describe('a job name cut beside another of the same list that asks something else', () => {
  // "links.txt · grep “Harbour”" read "links.txt…" beside "links.txt" in the 800 px list.
  it('keeps what is asked when the name and a few characters of it do not fit', () => {
    const label = 'links.txt · grep “Harbour”';
    expect(cutLabel(label, 10)).toBe('links.txt…');
    expect(cutLabel(label, 10, ['links.txt'])).toBe('…grep “Ha…');
    expect(cutLabel(label, 19, ['links.txt'])).toBe('…grep “Harbour”');
    expect(cutLabel(label, 20, ['links.txt'])).toBe('links.txt · grep “H…');
    expect(cutLabel(label, 26, ['links.txt'])).toBe(label);
    // Without " · ", nothing is asked: cut as any name is.
    expect(cutLabel('quarterly-report-2026.csv', 12, ['quarterly-report-2026.csv · text'])).toBe(cutLabel('quarterly-report-2026.csv', 12));
    expect(listPart(label)).toBe('links.txt');
    expect(listPart('a.org')).toBe('a.org');
  });

  // Two runs of one page, the second with context: both read "…text, grep… · 1 URL" in the 800 px list.
  it('shows where what is asked differs from the other runs of the list', () => {
    const first = '127.0.0.1:41234/article · text, grep “Harbour”';
    const second = `${first}, context`;
    expect(cutLabel(second, 10, [first, second])).toBe('…context');
    expect(cutLabel(first, 10, [first, second])).toBe('…“Harbour”');
    expect(cutLabel(first, 11, [first, second])).toBe('…“Harbour”');
    const third = '127.0.0.1:41234/article · grep “Paragraph 2”, question “what changed?”';
    expect(cutLabel(third, 13, [third, '127.0.0.1:41234/article · grep “harbour”'])).toBe('…Paragraph 2…');
  });
});

describe('a job name of several hosts cut short', () => {
  // "127…71 +1": a host's start and end, digits that name no site.
  it('keeps the start of its first host, never its middle cut out', () => {
    const label = '127.0.0.1:40771, 127.0.0.2:40771 · 3 URLs'.replace(' · 3 URLs', '');
    for (const max of [9, 10, 11, 12]) {
      const cut = cutLabel(label, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).toMatch(/^127\.0/);
      expect(cut).not.toMatch(/\d…\d/);
    }
    expect(cutLabel('docs.python.org, example.org', 12)).toBe('docs.pyt… +1');
  });
  // The 1280 px job list read "127.0.0.1:4… +1": a port's first digit, which names no site.
  it('keeps its first host\'s port whole or leaves it out', () => {
    const label = '127.0.0.1:43645, 127.0.0.2:37857';
    expect(cutLabel(label, 14)).toBe('127.0.0.1 +1');
    expect(cutLabel(label, 18)).toBe('127.0.0.1:43645 +1');
    for (let max = 6; max < label.length; max++) expect(cutLabel(label, max), String(max)).not.toMatch(/:(?!43645 \+1$)/);
    expect(cutLabel('[::1]:8080, [::2]:8080', 12)).toBe('[::1] +1');
  });
});
