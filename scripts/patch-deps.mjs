// Small fixes to pinned dependencies, applied to node_modules by `npm ci` (prepare) and by
// every CLI build (scripts/build-cli.mjs) before anything is bundled. Each edit names the
// exact text it replaces; one that finds neither that text nor its replacement stops the
// install, so a dependency upgrade that moves the code cannot slip through unpatched.
//
// linkedom 0.18.15, event-target.js: every node's constructor put a new Map into a WeakMap
// for event listeners that almost no node ever gets. Over the article benchmark's 91 pages
// (plus Readability's 4 test pages) that WeakMap entry was 11% of extractArticle's CPU
// profile and a good part of its GC; made lazy (the Map is created by the first
// addEventListener) extraction took 32-35 ms of CPU per page instead of 41-57, the same runs
// interleaved at load ~3, with identical output on all 95 pages.
//
// linkedom 0.18.15, parse-from-string.js: htmlparser2 was told to keep attribute names as
// written, where an HTML parser makes them lower case. On a page written in capitals, as the
// early web wrote HTML (<A HREF=…>, <IMG SRC=…>), getAttribute('href') then found nothing: links
// mode listed no link, the article lost its images, a task list its boxes. Lower case for HTML
// only; XML (feeds, sitemaps) keeps its names. An SVG's viewBox becomes viewbox, which a
// browser's parser reads back as viewBox.
//
// pdfjs-dist 5.6.205, legacy/build/pdf.worker.mjs, text extraction (getTextContent), which
// runs two matrix products for every glyph, twice:
// - getCurrentTextTransform multiplied through Util.transform, called from all over pdf.js
//   with plain arrays and Float32Arrays (the text state's ctm) alike, so its reads were
//   megamorphic and each call built two arrays; written out here as the same products in the
//   same order, so every value is bit for bit what it was;
// - TextState.clone made each copy's prototype the state it copied, so the chain grew with
//   every save and font change, every state had a shape of its own and every read of one
//   missed V8's caches; a copy now has the class's prototype. Every field is the copy's own
//   property (Object.assign copies them all), so no read finds anything else than before.
// On the 352-page book, one thread, same runs interleaved: 2,230-2,710 ms before and
// 1,725-2,040 after the first; with pdf-engine.mjs's zlib inflate, 1,490-1,800 after the
// first and 1,050-1,430 after both. The text content items (strings, transforms, widths)
// of all 12 PDFs in the corpora and fixtures are identical.
//
// pdfjs-dist 5.6.205, legacy/build/pdf.worker.mjs, DecodeStream.ensureBuffer: the decoders pdf.js
// runs itself (LZW, run-length, ASCII85, hex, and deflate that zlib refused) double their
// buffer as far as the data goes, with no ceiling: an 81 KB PDF whose LZW stream decodes to
// 11 GB held the process at 4.4 GB until the deadline. Before it grows a buffer it now asks
// pdf-engine.mjs's ceiling (256 MiB, the one zlib's inflate has there), which throws past it.
//
// pdfjs-dist 5.6.205, legacy/build/pdf.worker.mjs, buildTextContentItem: a combining mark (a
// glyph whose Unicode is Mn: an accent, a vector's arrow, a Greek ypogegrammeni) was added to
// the text item being built wherever the file drew it, on the idea that it follows its letter.
// TeX draws an accent before its letter, so the mark went on the glyph drawn before: "A⃗ ×⃗ B"
// for A⃗ × B⃗ (the arrow over B drawn right after the ×, in its font); and a mark alone in a
// table's cell went 123 pt back onto the last word of the cell before ("υπογεγραμμένῃ",
// greektonoi's table of accents). A mark drawn past the end of the item (more than the 0.03 em
// pdf.js calls "not a space"; TeX's \.e sets its dot 0.08 em into the e, which the 0.102 em of a
// space missed: "ē̇e" for "ēė") or on another baseline now makes an item of its own, at its
// place, which pdf-layout.mjs puts on the glyph it is over. A mark drawn back over its letter,
// as most fonts draw one, and a mark after a glyph of no width (cjhebrew's dotted circle) stay
// as pdf.js had them. On the bench's PDFs: Greek 0.943 -> 0.950, asmeconf 0.921 -> 0.923
// (with the layout's part), every other file's text unchanged (freeculture's 352 pages too).
//
// @joplin/turndown-plugin-gfm 1.0.68: the column count and each column's alignment read
// table.rows at every step of their loops, and domino (turndown's DOM) builds that list anew,
// walking the whole table, at every read: converting a table of 10 columns and 1,000 rows to
// Markdown took 77 s on the main thread, where no deadline stops it (1 s for 200 rows). The
// list is read once per loop; the rows, and so the Markdown, are the same.
//
// linkedom 0.18.15, shared/matches.js: querySelectorAll, querySelector and closest compiled
// their selector with css-select at every call, and extraction asks the same few dozen
// selectors of every page: on the batch bench's pages compiling was 20% of extractArticle's
// CPU profile (429 of 2,127 ms). A compiled selector is a function of the element alone
// unless the selector says :scope (its context is then the element asked), so those are
// compiled once per mode (HTML, XML) and kept, up to 512 of each; :scope ones as before.
//
// @mozilla/readability 0.6.0, _isProbablyVisible: read node.style.display and .visibility of
// every element it walks. linkedom makes an element's style object on first read (a Map, a
// Proxy and a WeakMap entry each), so every element of the page got one, for the answer
// "visible" that an element without a style attribute always gets (linkedom's style is that
// attribute alone). The style is now read only when the attribute is there. On the article
// benchmark's 91 pages, same process, alternated: extractArticle 24.5-25.4 ms of CPU per page
// before, 19.8 after (the batch bench's small pages 0.68-0.82 before, 0.55-0.56 after), with
// the same title, HTML, Markdown and text on every page.
//
// @mozilla/readability 0.6.0, _grabArticle: kept the page as HTML (body.innerHTML) before each
// extraction, to start again from it when the article came out too short (with fewer rules:
// 9 of the benchmark's 91 pages). Serializing the page, which linkedom does by joining every
// node's string, cost more than copying its tree; the copy is made with cloneNode and put back
// with its nodes, not by parsing HTML again. Four alternated runs on the 91 pages: 17.4-26.7 ms
// of CPU per page against 20.0-28.6 before, the same output on all and on Readability's test
// pages (the 9 that start again included).
//
// @mozilla/readability 0.6.0, _isValidByline and _isElementWithoutContent: built the whole
// text of each element they were asked about (textContent, every descendant's text joined)
// before the cheap tests, and for every <div>, <section> and heading of the page, which makes
// the text of the page many times over. _isValidByline now reads the text only of an element
// whose rel, itemprop or class names an author; _isElementWithoutContent asks whether there
// is any non-blank text, and stops at the first. The same answers (a fast-check test against
// textContent.trim()); on the 91 pages the text built by textContent during extraction halves
// (31.7 to 15.8 MB) and those two functions go from 5.6% of a CPU profile of extraction to 1.3%.
//
// linkedom 0.18.15, element.js, parse-from-string.js and utils.js: an element's classes.
// - The parser handed every class attribute to the className setter, which built a
//   DOMTokenList (a Set) for the element and wrote the tokens back into the attribute, each
//   once and one space apart. It now writes that same value into the attribute itself; the
//   token list is made, from the attribute, by the first read of classList.
// - className read the token list and joined it at every read (Readability reads it for
//   every element it scores). linkedom keeps the attribute equal to that join after every
//   change (classList, setAttribute, className), so className now reads the attribute.
// - tagName and nodeName upper-cased localName at every read; each name is upper-cased once.
// On the article benchmark's 91 pages, with the tag-list walk of src/main/fetch/tag-select.ts,
// 8 alternated runs of the same process: extractArticle 16.0 -> 14.2 ms of CPU per page
// (medians), with the same title, HTML, Markdown and text on all 91 pages and Readability's 4
// test pages, and the same className, class attribute and tagName on all 21,028 elements of 30.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const lazyListeners = [
  ['    wm.set(this, new Map);\n', ''],
  [
    '  addEventListener(type, listener, options) {\n    const map = wm.get(this);\n',
    '  addEventListener(type, listener, options) {\n    let map = wm.get(this);\n    if (!map) wm.set(this, map = new Map);\n',
  ],
  [
    '  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map.has(type)) {',
    '  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map && map.has(type)) {',
  ],
];

const pdfTextTransforms = [
  [
    '      return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));\n',
    [
      '      const m = textState.textMatrix;',
      '      const t0 = m[0] * tsm[0] + m[2] * tsm[1], t1 = m[1] * tsm[0] + m[3] * tsm[1], t2 = m[0] * tsm[2] + m[2] * tsm[3], t3 = m[1] * tsm[2] + m[3] * tsm[3], t4 = m[0] * tsm[4] + m[2] * tsm[5] + m[4], t5 = m[1] * tsm[4] + m[3] * tsm[5] + m[5];',
      '      const c = textState.ctm;',
      '      return [c[0] * t0 + c[2] * t1, c[1] * t0 + c[3] * t1, c[0] * t2 + c[2] * t3, c[1] * t2 + c[3] * t3, c[0] * t4 + c[2] * t5 + c[4], c[1] * t4 + c[3] * t5 + c[5]];',
      '',
    ].join('\n'),
  ],
  ['    const clone = Object.assign(Object.create(this), this);\n    clone.textMatrix', '    const clone = Object.assign(Object.create(TextState.prototype), this);\n    clone.textMatrix'],
];

const marksInPlace = [
  [
    '          continue;\n        }\n        const textChunk = ensureTextContentItem();\n',
    [
      '          continue;',
      '        }',
      '        const markAt = category.isZeroWidthDiacritic && textContentItem.initialized && textContentItem.width !== 0 && !font.vertical ? getCurrentTextTransform() : null;',
      '        const lastAt = textContentItem.prevTransform;',
      '        const markApart = !!markAt && markAt[0] > 0 && markAt[1] === 0 && markAt[2] === 0 && lastAt[1] === 0 && lastAt[2] === 0 && ((markAt[4] - lastAt[4]) / textContentItem.textAdvanceScale > textContentItem.notASpace || Math.abs(markAt[5] - lastAt[5]) > textContentItem.height);',
      '        if (markApart) {',
      '          resetLastChars();',
      '          flushTextContentItem();',
      '        }',
      '        const textChunk = ensureTextContentItem();',
      '',
    ].join('\n'),
  ],
  [
    '          textChunk.str.push(glyphUnicode);\n        }\n        if (charSpacing) {',
    '          textChunk.str.push(glyphUnicode);\n        }\n        if (markApart) {\n          flushTextContentItem();\n          textContentItem.prevTransform = null;\n        }\n        if (charSpacing) {',
  ],
];

const decodeCeiling = [
  [
    '  ensureBuffer(requested) {\n    const buffer = this.buffer;\n    if (requested <= buffer.byteLength) {\n      return buffer;\n    }\n    let size = this.minBufferLength;\n',
    '  ensureBuffer(requested) {\n    const buffer = this.buffer;\n    if (requested <= buffer.byteLength) {\n      return buffer;\n    }\n    globalThis.pdfjsDecodeCeiling?.(requested);\n    let size = this.minBufferLength;\n',
  ],
];

const tableRowsOnce = [
  ['  for (var i = 0; i < table.rows.length; ++i) {\n    var row = table.rows[i];\n', '  var rows = table.rows;\n  for (var i = 0; i < rows.length; ++i) {\n    var row = rows[i];\n'],
  ['  for (let i = 0; i < node.rows.length; i++) {\n    const row = node.rows[i];\n', '  const rows = node.rows;\n  for (let i = 0; i < rows.length; i++) {\n    const row = rows[i];\n'],
];

const compiledSelectors = [
  [
    "= (element, selectors) => CSSselect.compile(\n  selectors,\n  {\n    context: selectors.includes(':scope') ? element : void 0,\n    xmlMode: !ignoreCase(element),\n    adapter\n  }\n);\n",
    [
      '= (element, selectors) => {',
      '  const xmlMode = !ignoreCase(element);',
      "  if (selectors.includes(':scope')) return CSSselect.compile(selectors, {context: element, xmlMode, adapter});",
      '  const compiled = xmlMode ? compiledXml : compiledHtml;',
      '  let match = compiled.get(selectors);',
      '  if (!match) {',
      '    if (compiled.size >= 512) compiled.clear();',
      '    compiled.set(selectors, match = CSSselect.compile(selectors, {context: void 0, xmlMode, adapter}));',
      '  }',
      '  return match;',
      '};',
      'const compiledHtml = new Map, compiledXml = new Map;',
      '',
    ].join('\n'),
  ],
];

const visibleWithoutStyle = [
  [
    '      (!node.style || node.style.display != "none") &&\n      (!node.style || node.style.visibility != "hidden") &&\n',
    '      (!node.hasAttribute("style") || !node.style || node.style.display != "none") &&\n      (!node.hasAttribute("style") || !node.style || node.style.visibility != "hidden") &&\n',
  ],
];

const pageCacheByClone = [
  ['    var pageCacheHtml = page.innerHTML;\n', '    var pageCache = page.cloneNode(true);\n'],
  [
    '        page.innerHTML = pageCacheHtml;\n',
    '        var fresh = pageCache.cloneNode(true);\n        page.replaceChildren();\n        while (fresh.firstChild) page.appendChild(fresh.firstChild);\n',
  ],
];

const textLazily = [
  [
    '    var bylineLength = node.textContent.trim().length;\n\n    return (\n      (rel === "author" ||\n        (itemprop && itemprop.includes("author")) ||\n        this.REGEXPS.byline.test(matchString)) &&\n      !!bylineLength &&\n      bylineLength < 100\n    );\n',
    '    if (!(rel === "author" || (itemprop && itemprop.includes("author")) || this.REGEXPS.byline.test(matchString))) {\n      return false;\n    }\n    var bylineLength = node.textContent.trim().length;\n    return !!bylineLength && bylineLength < 100;\n',
  ],
  [
    '      node.nodeType === this.ELEMENT_NODE &&\n      !node.textContent.trim().length &&\n      (!node.children.length ||\n        node.children.length ==\n          node.getElementsByTagName("br").length +\n            node.getElementsByTagName("hr").length)\n    );\n  },\n',
    [
      '      node.nodeType === this.ELEMENT_NODE &&',
      '      !this._hasText(node) &&',
      '      (!node.children.length ||',
      '        node.children.length ==',
      '          node.getElementsByTagName("br").length +',
      '            node.getElementsByTagName("hr").length)',
      '    );',
      '  },',
      '',
      '  // Whether node.textContent.trim() is not empty, read up to its first non-blank character.',
      '  _hasText(node) {',
      '    for (var child = node.firstChild; child; child = child.nextSibling) {',
      '      if (child.nodeType === this.TEXT_NODE || child.nodeType === 4) {',
      '        if (/\\S/.test(child.textContent)) {',
      '          return true;',
      '        }',
      '      } else if (child.nodeType === this.ELEMENT_NODE && this._hasText(child)) {',
      '        return true;',
      '      }',
      '    }',
      '    return false;',
      '  },',
      '',
    ].join('\n'),
  ],
];

const classNameFromAttribute = [
  [
    '  get className() { return this.classList.value; }\n',
    "  get className() {\n    const attribute = this.getAttributeNode('class');\n    return attribute ? attribute.value : '';\n  }\n",
  ],
];

const upperCaseNamesOnce = [
  [
    '  return ownerDocument[MIME].ignoreCase ? localName.toUpperCase() : localName;\n};\n',
    [
      '  if (!ownerDocument[MIME].ignoreCase) return localName;',
      '  let upper = upperCaseNames.get(localName);',
      '  if (upper === undefined) {',
      '    upper = localName.toUpperCase();',
      '    if (upperCaseNames.size < 1024) upperCaseNames.set(localName, upper);',
      '  }',
      '  return upper;',
      '};',
      'const upperCaseNames = new Map;',
      '',
    ].join('\n'),
  ],
];

const htmlAttributeNames = [['    lowerCaseAttributeNames: false,\n', '    lowerCaseAttributeNames: isHTML,\n']];

const classTokensWhileParsing = [
  [
    "  if (attribute.name === 'class')\n    element.className = value;\n",
    [
      "  if (attribute.name === 'class')",
      '    attribute[VALUE] = classTokens(value);',
      '',
    ].join('\n'),
  ],
  [
    'let notParsing = true;\n\nconst append = ',
    [
      'let notParsing = true;',
      '',
      '// What the className setter leaves in the attribute: its tokens, each once, one space apart.',
      'const classTokens = value => {',
      '  value = String(value);',
      "  return /\\s/.test(value) ? [...new Set(value.split(/\\s+/).filter(Boolean))].join(' ') : value;",
      '};',
      '',
      'const append = ',
    ].join('\n'),
  ],
];

export const PATCHES = [
  { file: 'node_modules/linkedom/esm/shared/parse-from-string.js', edits: [...htmlAttributeNames, ...classTokensWhileParsing] },
  { file: 'node_modules/linkedom/cjs/shared/parse-from-string.js', edits: [...htmlAttributeNames, ...classTokensWhileParsing] },
  { file: 'node_modules/linkedom/esm/interface/event-target.js', edits: lazyListeners },
  { file: 'node_modules/linkedom/cjs/interface/event-target.js', edits: lazyListeners },
  { file: 'node_modules/linkedom/esm/shared/matches.js', edits: compiledSelectors },
  { file: 'node_modules/linkedom/cjs/shared/matches.js', edits: compiledSelectors },
  { file: 'node_modules/linkedom/esm/interface/element.js', edits: classNameFromAttribute },
  { file: 'node_modules/linkedom/cjs/interface/element.js', edits: classNameFromAttribute },
  { file: 'node_modules/linkedom/esm/shared/utils.js', edits: upperCaseNamesOnce },
  { file: 'node_modules/linkedom/cjs/shared/utils.js', edits: upperCaseNamesOnce },
  { file: 'node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs', edits: [...pdfTextTransforms, ...decodeCeiling, ...marksInPlace] },
  { file: 'node_modules/@joplin/turndown-plugin-gfm/lib/turndown-plugin-gfm.cjs.js', edits: tableRowsOnce },
  { file: 'node_modules/@mozilla/readability/Readability.js', edits: [...visibleWithoutStyle, ...pageCacheByClone, ...textLazily] },
];

/** Applies PATCHES (idempotent); returns the files it changed. Throws when an edit fits nowhere. */
export function patchDeps({ dir = root } = {}) {
  const changed = [];
  for (const { file, edits } of PATCHES) {
    const full = path.join(dir, file);
    const before = readFileSync(full, 'utf8');
    let text = before;
    for (const [from, to] of edits) {
      if (text.includes(from)) text = text.replace(from, to);
      // Neither the code nor its replacement (a pure removal, once done, leaves nothing to find).
      else if (to && !text.includes(to)) throw new Error(`patch-deps: ${file} no longer holds the code this patch edits; see scripts/patch-deps.mjs`);
    }
    if (text !== before) {
      writeFileSync(full, text);
      changed.push(file);
    }
  }
  return changed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = patchDeps();
  if (!process.argv.includes('--quiet')) process.stdout.write(changed.length ? `patched ${changed.join(', ')}\n` : 'dependencies already patched\n');
}
