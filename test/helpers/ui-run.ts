import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { pasteList, submitToDone } from './ui-app';

// Apart from ui-app.ts, which bench/ui.ts loads outside vitest.
/** The composer, opened from New, holding these lines, read as `count` URLs: ready to submit. */
export async function newList(page: Page, list: string, count: number): Promise<void> {
  await page.getByTestId('nav-new').click();
  await pasteList(page, list);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe(String(count));
}

/** A new job of these lines from the composer, submitted and run to its end (every target done); returns its id. */
export async function runListToDone(page: Page, list: string, count: number): Promise<string> {
  await newList(page, list, count);
  return submitToDone(page);
}
