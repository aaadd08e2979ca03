/**
 * What a keyboard or screen-reader user meets, read from the page in real Chromium: the focused
 * control (its name as the accessibility tree gives it, its outline), a walk of the Tab order,
 * and the text whose contrast with what is behind it falls short of WCAG's 4.5:1.
 */
import type { Page } from 'playwright-core';

export interface Focused {
  /** The test id, else the tag: what the walk's expectations name. */
  id: string;
  /** The element's line in the accessibility snapshot, e.g. `button "New list"`. */
  aria: string;
  /** A visible outline: drawn, at least 2 px, not transparent. */
  outlined: boolean;
}

export async function focused(page: Page): Promise<Focused> {
  const info = await page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return { id: 'body', outlined: false };
    const cs = getComputedStyle(e);
    const outlined = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 && !/rgba\(.*, 0\)$/.test(cs.outlineColor);
    return { id: e.dataset.testid ?? e.tagName.toLowerCase(), outlined };
  });
  if (info.id === 'body') return { id: 'body', aria: '', outlined: false };
  const aria = (await page.locator(':focus').ariaSnapshot()).split('\n')[0]!.replace(/^- /, '');
  return { ...info, aria };
}

/** Presses Tab from where focus is until it has been on `max` controls or comes back to the body. */
export async function tabWalk(page: Page, max = 40): Promise<Focused[]> {
  const out: Focused[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.id === 'body') break;
    out.push(f);
  }
  return out;
}

/**
 * Every visible piece of text under `root` whose colour, over the backgrounds behind it
 * (blended where they are translucent, opacity included), has a contrast below 4.5:1.
 * Disabled controls (disabled or aria-disabled) are left out: WCAG exempts them.
 */
export function lowContrast(page: Page, root = 'body'): Promise<string[]> {
  return page.evaluate((sel) => {
    const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = (c: number[]): number => {
      const f = (v: number): number => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    const blend = (top: number[], alpha: number, under: number[]): number[] => under.map((v, i) => top[i]! * alpha + v * (1 - alpha));
    const backdrop = (el: Element): number[] => {
      const layers: number[][] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        const a = c[3] ?? 1;
        if (a > 0) layers.unshift(c);
        if (a >= 1) break;
      }
      const canvas = matchMedia('(prefers-color-scheme: dark)').matches ? [0, 0, 0] : [255, 255, 255];
      return layers.reduce((under, c) => blend(c, c[3] ?? 1, under), canvas);
    };
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll(`${sel} *`))) {
      if (!Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())) continue;
      const box = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || cs.visibility === 'hidden' || el.closest('.visually-hidden, :disabled, [aria-disabled="true"], [aria-hidden="true"]')) continue;
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      const bg = backdrop(el);
      const c = rgba(cs.color);
      const fg = blend(c, (c[3] ?? 1) * opacity, bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5) out.push(`${ratio.toFixed(2)}:1 "${el.textContent!.trim().slice(0, 30)}" (${el.tagName.toLowerCase()}.${el.className}, ${cs.color} on rgb(${bg.map(Math.round).join(', ')}))`);
    }
    return out;
  }, root);
}

/**
 * Live regions inside another live region, each as `outer > inner` (test id, else tag, with
 * its role or aria-live): a change in the inner one is announced by both, so a screen reader
 * reads it twice. Empty when no live region nests.
 */
export function nestedLiveRegions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const live = (e: Element): boolean => {
      const l = e.getAttribute('aria-live');
      if (l) return l !== 'off';
      return ['alert', 'status', 'log', 'marquee', 'timer'].includes(e.getAttribute('role') ?? '');
    };
    const name = (e: Element): string => `${(e as HTMLElement).dataset.testid ?? e.tagName.toLowerCase()}[${e.getAttribute('role') ?? `aria-live=${e.getAttribute('aria-live')}`}]`;
    const out: string[] = [];
    for (const inner of Array.from(document.querySelectorAll('[aria-live], [role]')).filter(live)) {
      for (let outer = inner.parentElement; outer; outer = outer.parentElement) {
        if (live(outer)) out.push(`${name(outer)} > ${name(inner)}`);
      }
    }
    return out;
  });
}

/**
 * The name and the description Chromium's accessibility tree gives the element `selector` finds
 * (what a screen reader reads as the control, then after it), and whether it is marked invalid.
 */
export async function axOf(page: Page, selector: string): Promise<{ name: string; description: string; invalid: boolean }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
    const { nodeId } = (await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })) as { nodeId: number };
    if (!nodeId) throw new Error(`no element for ${selector}`);
    const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false })) as {
      nodes: { name?: { value?: string }; description?: { value?: string }; properties?: { name: string; value: { value?: unknown } }[] }[];
    };
    const n = nodes[0];
    const invalid = n?.properties?.find((p) => p.name === 'invalid')?.value.value;
    return { name: n?.name?.value ?? '', description: n?.description?.value ?? '', invalid: invalid !== undefined && invalid !== 'false' };
  } finally {
    await cdp.detach();
  }
}

/** What a screen reader gets from a control: whether it is disabled (no Tab stop), aria-disabled, and its description. */
export interface ControlState {
  disabled: boolean;
  ariaDisabled: string | null;
  description: string;
}

/**
 * Watches the control `testId` and gives its state at the moment its text becomes `text`: for a
 * state that lasts one round trip to main ("Stopping…"), which a poll after the press can miss.
 * Resolves once it is watching; `seen` then waits for that text.
 */
export async function whenSaying(page: Page, testId: string, text: string): Promise<{ seen: () => Promise<ControlState> }> {
  const handle = await page.evaluateHandle(
    ([id, want]) => ({
      state: new Promise<ControlState>((resolve) => {
        const look = (): boolean => {
          const b = document.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`);
          if (b?.textContent !== want) return false;
          const described = (b.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
          resolve({ disabled: b.disabled, ariaDisabled: b.getAttribute('aria-disabled'), description: described.map((d) => document.getElementById(d)?.textContent ?? '').join(' ') });
          return true;
        };
        const watch = new MutationObserver(() => look() && watch.disconnect());
        if (!look()) watch.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      }),
    }),
    [testId, text] as const,
  );
  return { seen: () => handle.evaluate((h) => h.state) };
}
