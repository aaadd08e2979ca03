// The PDF pool's worker: pdf.js text extraction off the main thread. Plain ESM JavaScript
// because pdfjs-dist is ESM-only and a worker runs outside the TypeScript loader.
//
// Two requests (see pdf-pool.ts):
// - open: parse the document, choose the pages, return the first `first` of them with the
//   page count and the document info;
// - pages: return the text of the given pages of a document opened before (this worker or
//   another may have opened it; each worker keeps the last document it parsed, by key).
import { parentPort } from 'node:worker_threads';
import { DOC_OPTIONS, MAX_STREAM_BYTES, TEXT_OPTIONS, pdfjs, takeStreamsTooLarge } from './pdf-engine.mjs';
import { pageText } from './pdf-layout.mjs';

/** A parsed document nobody asks for again is let go after this long. */
const KEEP_MS = 5000;

let cached; // { key, doc: Promise<PDFDocumentProxy>, timer }

function open(key, data) {
  if (cached && cached.key === key) {
    clearTimeout(cached.timer);
  } else {
    release();
    cached = { key, doc: pdfjs.getDocument({ data, ...DOC_OPTIONS }).promise, timer: undefined };
    cached.doc.catch(() => {});
  }
  return cached.doc;
}

/** Between requests only: a document in use is never destroyed under its reader. */
function keepForAWhile() {
  const mine = cached;
  if (!mine) return;
  clearTimeout(mine.timer);
  mine.timer = setTimeout(() => {
    if (cached === mine) release();
  }, KEEP_MS);
  mine.timer.unref?.();
}

function release() {
  if (!cached) return;
  const { doc, timer } = cached;
  clearTimeout(timer);
  cached = undefined;
  doc.then((d) => d.destroy()).catch(() => {});
}

/** `onRead(n)`: n of the pages are read (after each one), so a long reading can be followed page by page. */
async function texts(doc, numbers, links, onRead = () => {}) {
  const pages = [];
  const form = await hasForm(doc);
  const typed = await freeTexts(doc, numbers);
  for (const n of numbers) {
    let page;
    let content;
    try {
      page = await doc.getPage(n);
      content = await page.getTextContent(TEXT_OPTIONS);
    } catch (err) {
      // One damaged page (a page tree entry of the wrong type, say) failed the whole document,
      // and with it the pages that read fine, which pdftotext gives. It is named instead.
      pages.push({ n, text: '', columns: 1, narrowColumns: false, bidiLines: 0, failed: String((err && err.message) || err).slice(0, 200) });
      onRead(pages.length);
      continue;
    }
    if (form) content.items.push(...fieldValues(await page.getAnnotations({ intent: 'display' })));
    content.items.push(...(typed.get(n) ?? []));
    const { text, types, columns, narrowColumns, bidiLines, heading } = pageText(content);
    // The first page's heading is the title as printed, for a document whose info has none.
    const p = n === 1 && heading ? { n, text, types, columns, narrowColumns, bidiLines, heading } : { n, text, types, columns, narrowColumns, bidiLines };
    if (links) p.links = await linkTargets(page);
    pages.push(p);
    page.cleanup();
    onRead(pages.length);
  }
  return pages;
}

/**
 * Whether the document has form fields, asked once per document: a filled form's values are
 * drawn by its fields' widgets, which the page's text leaves out (a filled application read
 * "Name:" and "City:" without the name and the city, where pdftotext gives them). Reading a
 * page's annotations costs, so only a document with fields does.
 */
function hasForm(doc) {
  let known = forms.get(doc);
  if (!known) {
    known = doc.getFieldObjects().then(
      (fields) => fields !== null && Object.keys(fields).length > 0,
      () => false,
    );
    forms.set(doc, known);
  }
  return known;
}
const forms = new WeakMap();

/** The values of a page's visible text and choice fields, as text items where their widgets stand. */
function fieldValues(annotations) {
  const items = [];
  for (const a of annotations) {
    if (a.subtype !== 'Widget' || a.hidden || (a.fieldType !== 'Tx' && a.fieldType !== 'Ch') || !Array.isArray(a.rect)) continue;
    const value = Array.isArray(a.fieldValue) ? a.fieldValue.join(', ') : a.fieldValue;
    if (typeof value !== 'string' || value.trim() === '') continue;
    items.push(...boxLines(a.rect, value.split(/\r\n|\r|\n/), a.defaultAppearanceData?.fontSize));
  }
  return items;
}

/** Lines of text as text items in a box (an annotation's rect), from its top, or centred when one. */
function boxLines(rect, lines, fontSize) {
  const [x0, y0, , y1] = rect;
  // An auto-sized field (font size 0) is drawn to fit its box.
  const size = fontSize || Math.min(12, Math.max(1, (y1 - y0) * 0.7));
  const top = lines.length > 1 ? y1 - size * 1.2 : y0 + Math.max(0, (y1 - y0 - size) / 2);
  return lines.map((str, i) => ({ str, dir: 'ltr', transform: [size, 0, 0, size, x0 + 2, top - i * size * 1.2], width: str.length * size * 0.5, hasEOL: false }));
}

/** An annotation's flags that keep it off the screen: Hidden (2) and NoView (32). */
const NOT_SHOWN = 0x02 | 0x20;

/**
 * The text typed onto the given pages with a text box (FreeText annotations), by page number:
 * what a PDF viewer's "Add text" or typewriter tool writes, and how a form without fields is
 * filled in. A page's own text leaves it out, as it leaves out a form's fields ("Applicant
 * name:" without the name, where pdftotext gives both). The text as drawn (the appearance),
 * else the annotation's contents. Asked of the document for those pages only: pdf.js then
 * builds no annotation of another kind, where a page's getAnnotations builds all of them.
 */
async function freeTexts(doc, numbers) {
  const byPage = new Map();
  const wanted = new Set(numbers);
  const skip = new Set();
  for (let i = 0; i < doc.numPages; i++) if (!wanted.has(i + 1)) skip.add(i);
  let annotations = [];
  try {
    annotations = await doc.getAnnotationsByType(new Set([pdfjs.AnnotationType.FREETEXT]), skip);
  } catch {
    return byPage;
  }
  for (const a of annotations) {
    if (!a || (a.annotationFlags & NOT_SHOWN) !== 0 || !Array.isArray(a.rect)) continue;
    const drawn = Array.isArray(a.textContent) ? a.textContent.filter((t) => typeof t === 'string' && t.trim() !== '') : [];
    const lines = drawn.length > 0 ? drawn : (a.contentsObj?.str ?? '').split(/\r\n|\r|\n/);
    if (lines.every((l) => l.trim() === '')) continue;
    const n = a.pageIndex + 1;
    if (!byPage.has(n)) byPage.set(n, []);
    byPage.get(n).push(...boxLines(a.rect, lines, a.defaultAppearanceData?.fontSize));
  }
  return byPage;
}

/**
 * Where a page's links go, from its link annotations: whole, where the printed address may
 * break at a line end ("https://doi.org/10" / ".1115/1.4042912") or not be printed at all.
 * pdf.js gives `url` only for an absolute address it accepts.
 */
async function linkTargets(page) {
  const urls = [];
  for (const a of await page.getAnnotations({ intent: 'display' })) {
    if (a.subtype === 'Link' && typeof a.url === 'string' && /^https?:/i.test(a.url)) urls.push(a.url);
  }
  return urls;
}

function wantedPages(total, ranges, maxPages) {
  if (!ranges || ranges.length === 0) {
    if (total > maxPages) return { tooLong: true };
    return { wanted: Array.from({ length: total }, (_, i) => i + 1) };
  }
  const set = new Set();
  for (const [a, b] of ranges) for (let i = a; i <= Math.min(b, total); i++) set.add(i);
  const wanted = [...set].sort((x, y) => x - y);
  if (wanted.length > maxPages) return { tooLong: true, selected: wanted.length };
  return { wanted };
}

async function openDoc({ key, data, ranges, maxPages, links, first }) {
  let doc;
  try {
    doc = await open(key, data);
  } catch (err) {
    release();
    const name = err && err.name;
    return { error: { kind: name === 'PasswordException' ? 'encrypted' : 'malformed', message: String((err && err.message) || err) } };
  }
  const total = doc.numPages;
  // pdf.js takes the page tree's /Count as it is written, and recounts only a count too high:
  // one below zero made an ok result of no text that said the PDF had -5 pages.
  if (!Number.isInteger(total) || total < 0) {
    release();
    return { error: { kind: 'malformed', message: `its page tree counts ${total} pages` } };
  }
  const w = wantedPages(total, ranges, maxPages);
  if (w.tooLong) return { pagesTotal: total, tooLong: true, selected: w.selected };
  let info = {};
  try {
    const md = await doc.getMetadata();
    const i = md.info || {};
    info = { title: typeof i.Title === 'string' ? i.Title : '', author: typeof i.Author === 'string' ? i.Author : '' };
  } catch {}
  // Files attached to the document (a spreadsheet behind a report, a portfolio's parts) are
  // not its text: named, so a reader knows what was left out.
  try {
    const files = await doc.getAttachments();
    const names = Object.values(files ?? {}).map((f) => f && f.filename).filter((n) => typeof n === 'string' && n !== '');
    if (names.length > 0) info.attachments = names;
  } catch {}
  // Page 1's heading names a document whose info does not: read for it when page 1 is not
  // among the pages chosen, or pages=2-5 of a paper came back without a title (a file named
  // by its address in exports and search). One page more: 10-30 ms of a paper's first page.
  if (total > 0 && !w.wanted.includes(1)) {
    try {
      const page = await doc.getPage(1);
      const { heading } = pageText(await page.getTextContent(TEXT_OPTIONS));
      if (heading) info.heading = heading;
      page.cleanup();
    } catch {}
  }
  const pages = await texts(doc, w.wanted.slice(0, first), links);
  return { pagesTotal: total, wanted: w.wanted, pages, info };
}

async function morePages({ id, key, data, pages, links }) {
  const doc = await open(key, data);
  // A chunk's 16 pages of heavy drawing take seconds: the pool hears of each page as it is read.
  return { pages: await texts(doc, pages, links, (read) => parentPort.postMessage({ id, read })) };
}

parentPort.on('message', async (msg) => {
  let reply;
  takeStreamsTooLarge();
  try {
    reply = msg.op === 'pages' ? await morePages(msg) : await openDoc(msg);
  } catch (err) {
    reply = { error: { kind: 'malformed', message: String((err && err.message) || err) } };
  }
  // A stream cut at the ceiling left its page without text: the document fails, saying why.
  if (takeStreamsTooLarge() > 0) reply = { error: { kind: 'stream_too_large', message: `a stream in it inflates to more than ${MAX_STREAM_BYTES / 1024 / 1024} MiB` } };
  keepForAWhile();
  parentPort.postMessage({ id: msg.id, ...reply });
});
