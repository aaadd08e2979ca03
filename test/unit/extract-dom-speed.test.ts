/**
 * The changes that made extraction cheaper keep linkedom's behaviour: the tag-list fast
 * path of querySelector(All) finds what linkedom's own css-select path finds, the lazy
 * listener map (scripts/patch-deps.mjs) still delivers and removes events, and a selector
 * compiled once (the same script) answers every document and element as before.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';

type Q = (this: unknown, s: string) => unknown;
type El = { localName: string; getAttribute(n: string): string | null };

// linkedom's own methods, taken before the fast path is installed (importing html.ts installs it).
const probe = parseHTML('<html><body></body></html>').document;
const originals = new Map<object, { all: Q; one: Q }>();
for (const sample of [probe, probe.body, probe.createDocumentFragment()] as object[]) {
  for (let p = Object.getPrototypeOf(sample) as Record<string, Q> | null; p; p = Object.getPrototypeOf(p) as Record<string, Q> | null) {
    if (Object.prototype.hasOwnProperty.call(p, 'querySelectorAll')) originals.set(p, { all: p.querySelectorAll!, one: p.querySelector! });
  }
}
const { installTagSelect, tagList } = await import('../../src/main/fetch/tag-select');
installTagSelect();

/** What linkedom itself answers for node.querySelector(All)(s). */
function linkedomAnswer(node: object, s: string, all: boolean): unknown {
  for (let p = Object.getPrototypeOf(node) as object | null; p; p = Object.getPrototypeOf(p)) {
    const o = originals.get(p);
    if (o) return (all ? o.all : o.one).call(node, s);
  }
  throw new Error('no linkedom querySelectorAll on this node');
}

const ids = (list: unknown): (string | null)[] => Array.from(list as ArrayLike<El>, (e) => `${e.localName}#${e.getAttribute('id') ?? ''}`);

const PAGE = `<!doctype html><html><head><title>t</title><base href="http://x/"></head><body id="b">
<div id="d1"><p id="p1">a <span id="s1">b</span></p><TABLE id="t1"><tr id="r1"><td id="c1">x</td></tr></TABLE></div>
<template id="tp"><p id="hidden">not searched</p><img id="img-in-template"></template>
<section id="sec"><h2 id="h2a">x</h2><div id="d2"><h1 id="h1a">y</h1><img id="i1"><svg id="sv"><foreignObject id="fo"></foreignObject></svg></div></section>
<ul id="u"><li id="l1">1</li><li id="l2"><ol id="o"><li id="l3">3</li></ol></li></ul><iframe id="f"></iframe>
</body></html>`;

const SELECTORS = [
  'p', 'li', 'h1,h2', 'h2, h1', 'img,embed,object,iframe', 'SPAN,LI,TD,BLOCKQUOTE,DL,DIV,IMG,OL,P,PRE,TABLE,UL', 'template', 'foreignObject',
  'table', 'tr', 'nothing', 'ul,ol', ' p , div ', 'body', 'html', 'head', 'title',
];

describe('tag-list fast path of querySelector(All)', () => {
  it('finds what linkedom finds, in the same order, from the document, an element and a fragment', () => {
    const { document } = parseHTML(PAGE);
    const frag = document.createDocumentFragment();
    frag.appendChild(document.getElementById('sec')!.cloneNode(true));
    const roots: object[] = [document, document.body, document.getElementById('d1')!, document.getElementById('u')!, document.getElementById('tp')!, frag];
    for (const root of roots) {
      for (const s of SELECTORS) {
        const q = root as { querySelectorAll(s: string): unknown; querySelector(s: string): El | null };
        expect(ids(q.querySelectorAll(s)), `${s} all from ${(root as { nodeName: string }).nodeName}#${(root as { id?: string }).id ?? ""}`).toEqual(ids(linkedomAnswer(root, s, true)));
        const mine = q.querySelector(s);
        const theirs = linkedomAnswer(root, s, false) as El | null;
        expect(mine && ids([mine])[0], `${s} one`).toEqual(theirs && ids([theirs])[0]);
      }
    }
  });

  it('hands every other selector to linkedom', () => {
    expect(tagList('div[class]')).toBeNull();
    expect(tagList('a[href], area[href]')).toBeNull();
    expect(tagList('div p')).toBeNull();
    expect(tagList('*')).toBeNull();
    expect(tagList('')).toBeNull();
    const { document } = parseHTML(PAGE);
    expect(ids(document.querySelectorAll('div p, #s1'))).toEqual(['p#p1', 'span#s1']);
    expect(document.querySelector('base[href]')?.getAttribute('href')).toBe('http://x/');
  });

  it('returns linkedom NodeLists, live to later DOM changes as before (a fresh list per call)', () => {
    const { document } = parseHTML(PAGE);
    const before = document.querySelectorAll('li');
    expect(before.constructor).toBe((linkedomAnswer(document, 'li', true) as object).constructor);
    document.getElementById('u')!.remove();
    expect(before.length).toBe(3);
    expect(document.querySelectorAll('li').length).toBe(0);
  });

  it('leaves XML documents to linkedom (names compare case-sensitively there)', () => {
    const xml = new (parseHTML('').window.DOMParser)().parseFromString('<root><Item id="a"/><item id="b"/></root>', 'text/xml');
    expect(ids(xml.querySelectorAll('Item'))).toEqual(ids(linkedomAnswer(xml, 'Item', true)));
    expect(ids(xml.querySelectorAll('Item'))).toEqual(['Item#a']);
  });

  it('agrees with linkedom on random trees and tag lists (fast-check)', () => {
    const tags = ['div', 'p', 'span', 'li', 'ul', 'template', 'h1', 'TABLE', 'td', 'img', 'section'];
    // A tree as a run of opening tags, each followed by 0-3 closes of the open ones.
    const step = fc.record({ tag: fc.constantFrom(...tags), closes: fc.nat(3) });
    const html = (steps: { tag: string; closes: number }[]): string => {
      const open: string[] = [];
      let out = '';
      steps.forEach(({ tag, closes }, i) => {
        out += `<${tag} id="n${i}">t`;
        if (tag !== 'img') open.push(tag);
        for (let c = 0; c < closes && open.length; c++) out += `</${open.pop()}>`;
      });
      while (open.length) out += `</${open.pop()}>`;
      return out;
    };
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.uniqueArray(fc.constantFrom(...tags, 'b', 'IMG'), { minLength: 1, maxLength: 4 }), (steps, list) => {
        const { document } = parseHTML(`<html><body>${html(steps)}</body></html>`);
        const s = list.join(',');
        for (const root of [document, document.body, ...Array.from(document.body.children).slice(0, 2)]) {
          const q = root as unknown as { querySelectorAll(s: string): unknown; querySelector(s: string): El | null };
          expect(ids(q.querySelectorAll(s))).toEqual(ids(linkedomAnswer(root, s, true)));
          const first = linkedomAnswer(root, s, false) as El | null;
          expect(q.querySelector(s)?.getAttribute('id') ?? null).toBe(first?.getAttribute('id') ?? null);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('linkedom nodes create their listener map on first use (scripts/patch-deps.mjs)', () => {
  it('still delivers, stops and removes listeners', () => {
    const { document, window } = parseHTML('<html><body><div id="a"><button id="b">x</button></div></body></html>');
    const seen: string[] = [];
    const onDiv = (e: { type: string }) => seen.push(`div:${e.type}`);
    document.getElementById('a')!.addEventListener('ping', onDiv);
    const b = document.getElementById('b')!;
    b.addEventListener('ping', (e: { type: string }) => seen.push(`button:${e.type}`));
    b.dispatchEvent(new window.Event('ping', { bubbles: true }));
    document.getElementById('a')!.removeEventListener('ping', onDiv);
    b.removeEventListener('other', onDiv); // a node with listeners for other types only
    document.body.removeEventListener('ping', onDiv); // a node that never had one
    b.dispatchEvent(new window.Event('ping', { bubbles: true }));
    expect(seen).toEqual(['button:ping', 'div:ping', 'button:ping']);
  });

  it('is applied to the installed linkedom, in both of its builds', () => {
    for (const build of ['esm', 'cjs']) {
      const src = readFileSync(path.resolve(__dirname, `../../node_modules/linkedom/${build}/interface/event-target.js`), 'utf8');
      expect(src, build).not.toContain('wm.set(this, new Map);');
      expect(src, build).toContain('if (!map) wm.set(this, map = new Map);');
    }
  });

  it("is applied to the installed tables plugin: table.rows read once per loop (domino builds the list anew at each read)", () => {
    const src = readFileSync(path.resolve(__dirname, '../../node_modules/@joplin/turndown-plugin-gfm/lib/turndown-plugin-gfm.cjs.js'), 'utf8');
    expect(src).not.toContain('i < table.rows.length');
    expect(src).not.toContain('i < node.rows.length');
  });

  it('patches an unpatched copy once, and stops on code it does not recognise', async () => {
    const { patchDeps, PATCHES } = (await import(path.resolve(__dirname, '../../scripts/patch-deps.mjs'))) as {
      patchDeps(o: { dir: string }): string[];
      PATCHES: { file: string; edits: [string, string][] }[];
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-patch-'));
    const unpatched = (edits: [string, string][]) => `class T {\n  constructor() {\n${edits[0]![0]}  }\n${edits.slice(1).map(([from]) => `${from}\n  }\n`).join('')}}\n`;
    for (const { file, edits } of PATCHES) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), unpatched(edits));
    }
    expect(patchDeps({ dir })).toHaveLength(PATCHES.length);
    expect(patchDeps({ dir })).toEqual([]);
    for (const { file, edits } of PATCHES) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      for (const [from, to] of edits) {
        expect(text).not.toContain(from);
        if (to) expect(text).toContain(to);
      }
    }
    writeFileSync(path.join(dir, PATCHES[0]!.file), 'export class Moved {}\n');
    expect(() => patchDeps({ dir })).toThrow(/no longer holds the code/);
  });
});

describe('linkedom compiles a selector once (scripts/patch-deps.mjs)', () => {
  const idsOf = (list: ArrayLike<{ getAttribute(n: string): string | null }>): (string | null)[] => Array.from(list, (e) => e.getAttribute('id'));

  it('is applied to the installed linkedom, in both of its builds', () => {
    for (const build of ['esm', 'cjs']) {
      const src = readFileSync(path.resolve(__dirname, `../../node_modules/linkedom/${build}/shared/matches.js`), 'utf8');
      expect(src, build).toContain('let match = compiled.get(selectors);');
    }
  });

  it('answers each document with its own elements, however often the selector was asked before', () => {
    const one = parseHTML('<html><body><div class="a"><p id="x1" class="k">1</p></div><p id="x2" class="k">2</p></body></html>').document;
    const two = parseHTML('<html><body><div class="a"><p id="y1" class="k">1</p><p id="y2">2</p></div></body></html>').document;
    for (let i = 0; i < 3; i++) {
      expect(idsOf(one.querySelectorAll('div.a > p.k'))).toEqual(['x1']);
      expect(idsOf(two.querySelectorAll('div.a > p.k'))).toEqual(['y1']);
      expect(two.querySelector('div.a > p:not(.k)')?.getAttribute('id')).toBe('y2');
      expect(one.getElementById('x1')!.closest('div.a')).toBe(one.querySelector('div.a'));
      expect(two.getElementById('y2')!.closest('div.a')).toBe(two.querySelector('div.a'));
    }
  });

  it('scopes :scope to the element asked, every time', () => {
    const { document } = parseHTML('<html><body><div id="a"><p id="a1"></p><div id="b"><p id="b1"></p></div></div></body></html>');
    expect(idsOf(document.getElementById('a')!.querySelectorAll(':scope > p'))).toEqual(['a1']);
    expect(idsOf(document.getElementById('b')!.querySelectorAll(':scope > p'))).toEqual(['b1']);
  });

  it('keeps HTML and XML apart: names compare without case in HTML only', () => {
    const html = parseHTML('<html><body><item id="h"></item></body></html>').document;
    const { DOMParser } = parseHTML('<html></html>');
    const xml = new DOMParser().parseFromString('<root><item id="lower"/><Item id="upper"/></root>', 'text/xml');
    expect(idsOf(html.querySelectorAll('Item[id]'))).toEqual(['h']);
    expect(idsOf(xml.querySelectorAll('Item[id]'))).toEqual(['upper']);
    expect(idsOf(html.querySelectorAll('Item[id]'))).toEqual(['h']);
  });

  it('still rejects a selector that is not one, every time', () => {
    const { document } = parseHTML('<html><body></body></html>');
    for (let i = 0; i < 2; i++) expect(() => document.querySelectorAll('p[')).toThrow();
  });
});

describe("Readability reads an element's style only when it has a style attribute (scripts/patch-deps.mjs)", () => {
  const styleGetter = (): { proto: object; get: () => unknown } => {
    const el = parseHTML('<html><body><p></p></body></html>').document.querySelector('p')!;
    for (let p = Object.getPrototypeOf(el) as object | null; p; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, 'style');
      if (d?.get) return { proto: p, get: d.get };
    }
    throw new Error("no style getter on linkedom's elements");
  };

  it('makes no style object for elements without one (linkedom builds a Proxy and a Map for each)', async () => {
    const { extractArticle } = await import('../../src/main/fetch/html');
    const { proto, get } = styleGetter();
    let reads = 0;
    Object.defineProperty(proto, 'style', {
      configurable: true,
      get(this: unknown) {
        reads++;
        return get.call(this);
      },
    });
    try {
      const para = (i: number): string => `<p>Paragraph ${i} of the article, long enough to count as prose, with a few commas, words and sentences in it.</p>`;
      const page = `<html><head><title>A story</title></head><body><nav><a href="/">Home</a></nav><article><h1>A story</h1>${Array.from({ length: 12 }, (_, i) => para(i)).join('')}</article></body></html>`;
      const a = extractArticle(page, 'https://example.org/a');
      expect(a.markdown).toContain('Paragraph 11 of the article');
      expect(reads).toBe(0);
      // An element hidden by its style attribute is still left out.
      const hidden = page.replace('<h1>A story</h1>', '<h1>A story</h1><div style="display: none"><p>Hidden promo text that no reader sees on the page at all, long enough.</p></div><div style="visibility:hidden"><p>Invisible promo text that no reader sees on the page at all, long enough.</p></div>');
      const b = extractArticle(hidden, 'https://example.org/a');
      expect(reads).toBeGreaterThan(0);
      expect(b.markdown).toContain('Paragraph 11 of the article');
      expect(b.markdown).not.toContain('Hidden promo');
      expect(b.markdown).not.toContain('Invisible promo');
    } finally {
      Object.defineProperty(proto, 'style', { configurable: true, get });
    }
  });
});

describe("Readability starts again from a copy of the page's tree, not from its HTML (scripts/patch-deps.mjs)", () => {
  it('finds an article that only a second try finds, and never serializes the page to get there', async () => {
    const { extractArticle } = await import('../../src/main/fetch/html');
    const el = parseHTML('<html><body></body></html>').document.body;
    let proto: object | null = Object.getPrototypeOf(el) as object;
    while (proto && !Object.getOwnPropertyDescriptor(proto, 'innerHTML')?.get) proto = Object.getPrototypeOf(proto) as object | null;
    const desc = Object.getOwnPropertyDescriptor(proto!, 'innerHTML')!;
    let bodyReads = 0;
    Object.defineProperty(proto!, 'innerHTML', {
      ...desc,
      get(this: { localName?: string }) {
        if (this.localName === 'body') bodyReads++;
        return desc.get!.call(this);
      },
    });
    try {
      // The text sits in a block whose class Readability first strips as unlikely ("comment"),
      // so the first try finds too little and it starts again from the page as it was.
      const para = (i: number): string => `<p>Harbour note ${i}: the tolls rose again this spring, and the pilots say, with some reason, that the new berths came late.</p>`;
      const page = `<html><head><title>Harbour</title></head><body><div class="comment-thread">${Array.from({ length: 10 }, (_, i) => para(i)).join('')}</div></body></html>`;
      const a = extractArticle(page, 'https://example.org/harbour');
      expect(a.text).toContain('Harbour note 0:');
      expect(a.text).toContain('Harbour note 9:');
      expect(bodyReads).toBe(0);
    } finally {
      Object.defineProperty(proto!, 'innerHTML', desc);
    }
  });
});

describe("Readability reads an element's text only as far as it needs (scripts/patch-deps.mjs)", () => {
  type R = { _hasText(n: unknown): boolean; _isValidByline(n: unknown, m: string): boolean; _isElementWithoutContent(n: unknown): boolean };
  const readabilityOf = async (doc: unknown): Promise<R> => {
    const { Readability } = await import('@mozilla/readability');
    return new Readability(doc as Document) as unknown as R;
  };

  it('tells an element with text from one without, as textContent.trim() does, on random trees (fast-check)', async () => {
    const piece = fc.constantFrom('', ' ', '\n\t', '\u00a0', '\ufeff', '\u2003', 'a', ' x ', '<!-- c -->', '<br>', '<hr>', '<img src=x>', '<span>', '</span>', '<div>', '</div>', '<p>', '<b> </b>', '<template>t</template>', '<svg><text>s</text></svg>');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), async (pieces) => {
        const { document } = parseHTML(`<html><body><div id="r">${pieces.join('')}</div></body></html>`);
        const r = await readabilityOf(document);
        for (const el of [document.body, ...Array.from(document.querySelectorAll('*'))]) {
          const text = (el as { textContent: string }).textContent;
          expect(r._hasText(el)).toBe(text.trim().length > 0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds the same bylines: the name tests first, then the length of the text', async () => {
    const { document } = parseHTML(
      `<html><body><a rel="author" id="a">Ann Lee</a><span itemprop="author" id="b">${'x'.repeat(120)}</span><div class="byline" id="c"> </div><p id="d">By Bo Park</p><span itemprop="authorName" id="e">Cy</span></body></html>`,
    );
    const r = await readabilityOf(document);
    const by = (id: string, match: string): boolean => r._isValidByline(document.getElementById(id), match);
    expect(by('a', '')).toBe(true);
    expect(by('b', '')).toBe(false); // too long
    expect(by('c', 'byline')).toBe(false); // empty
    expect(by('d', 'intro')).toBe(false); // no sign of an author
    expect(by('d', 'byline')).toBe(true);
    expect(by('e', '')).toBe(true);
  });
});

describe('linkedom keeps an element\'s classes in its class attribute alone, and upper-cases each tag name once (scripts/patch-deps.mjs)', () => {
  type C = {
    className: string;
    classList: { add(...t: string[]): void; remove(...t: string[]): void; contains(t: string): boolean; length: number };
    getAttribute(n: string): string | null;
    setAttribute(n: string, v: string): void;
    removeAttribute(n: string): void;
    cloneNode(deep: boolean): C;
    outerHTML: string;
    tagName: string;
    innerHTML: string;
    firstElementChild: C | null;
  };
  const page = () =>
    parseHTML('<html><body><p id="a" class="  x  y x "></p><p id="b"></p><svg id="c" class="s\tt"></svg><div id="d" class="only"></div></body></html>').document;
  const el = (doc: ReturnType<typeof page>, id: string): C => doc.getElementById(id) as unknown as C;

  it('is applied to the installed linkedom, in both of its builds', () => {
    for (const build of ['esm', 'cjs']) {
      const read = (file: string): string => readFileSync(path.resolve(__dirname, `../../node_modules/linkedom/${build}/${file}`), 'utf8');
      expect(read('interface/element.js'), build).not.toContain('get className() { return this.classList.value; }');
      expect(read('shared/parse-from-string.js'), build).toContain('attribute[VALUE] = classTokens(value);');
      expect(read('shared/utils.js'), build).toContain('upperCaseNames.get(localName)');
    }
  });

  it('parses a class as the className setter leaves it: each token once, one space apart', () => {
    const doc = page();
    expect(el(doc, 'a').className).toBe('x y');
    expect(el(doc, 'a').getAttribute('class')).toBe('x y');
    expect(el(doc, 'a').outerHTML).toBe('<p id="a" class="x y"></p>');
    expect(el(doc, 'a').classList.length).toBe(2);
    expect(el(doc, 'd').className).toBe('only');
    expect(el(doc, 'b').className).toBe('');
    expect(el(doc, 'c').getAttribute('class')).toBe('s t');
    const host = el(doc, 'b');
    host.innerHTML = '<span class="u  v u">w</span>';
    expect(host.firstElementChild?.className).toBe('u v');
  });

  it('reads className from the attribute after every kind of change', () => {
    const doc = page();
    const a = el(doc, 'a');
    a.classList.add('z');
    expect([a.className, a.getAttribute('class')]).toEqual(['x y z', 'x y z']);
    a.classList.remove('x');
    expect(a.className).toBe('y z');
    a.setAttribute('class', 'q  q r');
    expect([a.className, a.classList.contains('q'), a.classList.contains('y')]).toEqual(['q r', true, false]);
    a.className = 'm';
    expect([a.className, a.classList.contains('m'), a.classList.length]).toEqual(['m', true, 1]);
    expect(a.cloneNode(true).className).toBe('m');
    a.removeAttribute('class');
    expect([a.className, a.outerHTML, a.classList.length]).toEqual(['', '<p id="a"></p>', 0]);
    const b = el(doc, 'b');
    b.classList.add('n');
    expect([b.className, b.getAttribute('class')]).toEqual(['n', 'n']);
  });

  it('gives tag names upper-cased in HTML and as written in XML, past the cache of names', () => {
    const doc = page();
    expect(el(doc, 'a').tagName).toBe('P');
    const names = Array.from({ length: 1100 }, (_, i) => `x-el${i}`);
    doc.body.innerHTML = names.map((n) => `<${n}></${n}>`).join('');
    expect(Array.from(doc.body.children, (c) => (c as unknown as C).tagName)).toEqual(names.map((n) => n.toUpperCase()));
    expect(doc.getElementsByTagName('X-EL1099')).toHaveLength(1);
    const { DOMParser } = parseHTML('<html></html>');
    const xml = new DOMParser().parseFromString('<root><Item/></root>', 'text/xml');
    expect((xml.querySelector('Item') as unknown as C).tagName).toBe('Item');
  });
});
