import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { pasteList } from './ui-app';

// Apart from ui-app.ts, which bench/ui.ts loads outside vitest.
/** A new job of these lines from the composer, submitted and run to its end (every target done). */
export async function runListToDone(page: Page, list: string, count: number): Promise<void> {
  await page.getByTestId('nav-new').click();
  await pasteList(page, list);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe(String(count));
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
}
