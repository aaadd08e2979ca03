import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

/**
 * The options form's placeholders say what each field takes: one cut at the field's edge says
 * half of it. At a 1024 × 768 window the jq field's read "jq program for JSON documents, e.g.
 * .items[" and stopped; at 800 × 768 "for JSON documents, e.g. .items[].na", and the paste box's
 * example read "https://api.example.org/items.jso" over "n jq='.items[].name'".
 */
let page: Page;

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

/** The placeholders of the options form wider than the room their field gives them. */
function cutPlaceholders(p: Page): Promise<string[]> {
  return p.locator('.list-options input[placeholder]').evaluateAll((inputs: HTMLInputElement[]) => {
    const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    return inputs
      .filter((input) => {
        const style = getComputedStyle(input);
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return ctx.measureText(input.placeholder).width > room;
      })
      .map((input) => input.placeholder);
  });
}

/**
 * The paste box's placeholder lines wider than its text's room, with that room in px: a line
 * wider is wrapped, and a URL wrapped in its middle ("…/items.jso" over "n jq=…") reads as two.
 */
function wrappedPasteLines(p: Page): Promise<{ room: number; lines: string[] }> {
  return p.getByTestId('paste-box').evaluate((box: HTMLTextAreaElement) => {
    const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const style = getComputedStyle(box);
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { room, lines: box.placeholder.split('\n').filter((line) => ctx.measureText(line).width > room) };
  });
}

for (const [width, height] of [
  [800, 768],
  [1024, 768],
  [1280, 800],
  [1440, 900],
] as const) {
  test(`at ${width} × ${height} every placeholder of the composer reads whole, the list pasted or not`, async () => {
    await page.setViewportSize({ width, height });
    await page.getByTestId('nav-new').click();
    await page.getByTestId('opt-jq').waitFor();
    // The list the width before pasted is kept as a draft: emptied, so the placeholder shows.
    await page.getByTestId('paste-box').fill('');
    await page.locator('[data-testid="paste-box"]:placeholder-shown').waitFor();
    await page.getByTestId('count-valid').waitFor({ state: 'detached' });
    expect(await page.locator('.list-options input[placeholder]').count()).toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: screenshotPath(`ui-option-placeholders-empty-${width}`) });
    expect(await cutPlaceholders(page)).toEqual([]);
    expect((await wrappedPasteLines(page)).lines).toEqual([]);
    await pasteList(page, 'https://example.org/a\nhttps://example.org/b.json');
    await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
    expect(await cutPlaceholders(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath(`ui-option-placeholders-${width}`) });
    expect(pageErrors(page)).toEqual([]);
  });
}
