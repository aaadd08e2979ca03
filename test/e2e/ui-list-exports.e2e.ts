import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { dropFile } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

/**
 * Lists as spreadsheets and bookmark services write them, dropped on the composer: the counts
 * the user sees before submitting are the ones the file holds. Nothing is fetched.
 */
let page: Page;

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const rowUrls = (): Promise<string[]> => page.getByTestId('parsed-row').locator('.parsed-url').allTextContents();

test('a CSV that Excel for Mac saved with semicolons and CR line ends shows its rows, and the bad one on its line', async () => {
  // Excel with a German locale separates cells with ";"; "CSV (Macintosh)" ends lines with CR alone.
  const csv = ['Titel;URL;q', 'Preise;https://shop.example/preise?rabatt=0,5;was kostet es, netto?', 'Kaputt;shop.example/alt;', 'Preise nochmal;https://shop.example/preise?rabatt=0,5;was kostet es, netto?', 'Impressum;https://shop.example/impressum;', ''].join('\r');
  await dropFile(page, 'Leseliste.csv', Buffer.from(csv, 'latin1'), 'text/csv');
  await expect.poll(text('count-valid')).toBe('2');
  expect(await text('count-invalid')()).toBe('1');
  expect(await text('count-duplicates')()).toBe('1');
  expect(await text('read-as')()).toBe('read as csv');
  expect(await rowUrls()).toEqual(['https://shop.example/preise?rabatt=0,5', 'https://shop.example/impressum']);
  // The q column is the first row's own question.
  expect(await page.getByTestId('own-options').allTextContents()).toEqual(['question="was kostet es, netto?"']);
  await expect.poll(text('invalid-list')).toMatch(/line 3.*missing scheme: did you mean https:\/\/shop\.example\/alt\?/);
  await page.screenshot({ path: screenshotPath('ui-drop-semicolon-csv') });
});

test('a bookmarks export counts its bookmarks, not the links in their descriptions', async () => {
  await page.getByTestId('nav-new').click();
  // As Shaarli exports a bookmark whose description links its thumbnail on the user's server.
  const html = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>My local links</TITLE>',
    '<DL><p>',
    '<DT><A HREF="https://news.example/future/fish-pirates" ADD_DATE="1591451445" TAGS="story">The hunt for the fish pirates</A>',
    '<DD>For 10 years, a rogue fishing vessel plundered the oceans.',
    '<a href="http://localhost.localdomain:8083/Shaarli/?JVvqCA"><img src="http://localhost.localdomain:8083/Shaarli/cache/thumb/1.jpg"/></a>',
    '<DT><A HREF="place:sort=8&maxResults=10">Recent tags</A>',
    '</DL><p>',
  ].join('\n');
  await dropFile(page, 'bookmarks.html', html, 'text/html');
  await expect.poll(rowUrls).toEqual(['https://news.example/future/fish-pirates']);
  expect(await text('count-valid')()).toBe('1');
  expect(await text('count-invalid')()).toBe('1');
  await expect.poll(text('invalid-list')).toMatch(/line 8.*not an http\(s\) URL: place:sort=8&maxResults=10/);
});
