// The PDF pool's worker: pdf.js text extraction off the main thread. Plain ESM JavaScript
// because pdfjs-dist is ESM-only and a worker runs outside the TypeScript loader.
import { parentPort } from 'node:worker_threads';

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');

function pageText(content) {
  let out = '';
  let lastY;
  for (const item of content.items) {
    if (typeof item.str !== 'string') continue;
    const y = Array.isArray(item.transform) ? item.transform[5] : undefined;
    // A new baseline without an explicit EOL still starts a new line, as pdftotext does.
    if (out && lastY !== undefined && y !== undefined && Math.abs(y - lastY) > 2 && !out.endsWith('\n')) out += '\n';
    out += item.str;
    if (item.hasEOL) out += '\n';
    if (y !== undefined) lastY = y;
  }
  return out.replace(/[ \t]+\n/g, '\n').trim();
}

async function extract({ data, ranges, maxPages }) {
  let doc;
  try {
    doc = await pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false })
      .promise;
  } catch (err) {
    const name = err && err.name;
    return { error: { kind: name === 'PasswordException' ? 'encrypted' : 'malformed', message: String((err && err.message) || err) } };
  }
  try {
    const total = doc.numPages;
    let wanted = [];
    if (!ranges || ranges.length === 0) {
      if (total > maxPages) return { pagesTotal: total, tooLong: true };
      for (let i = 1; i <= total; i++) wanted.push(i);
    } else {
      const set = new Set();
      for (const [a, b] of ranges) for (let i = a; i <= Math.min(b, total); i++) set.add(i);
      wanted = [...set].sort((x, y) => x - y);
      if (wanted.length > maxPages) return { pagesTotal: total, tooLong: true, selected: wanted.length };
    }
    const pages = [];
    for (const n of wanted) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push({ n, text: pageText(content) });
      page.cleanup();
    }
    let info = {};
    try {
      const md = await doc.getMetadata();
      const i = md.info || {};
      info = { title: typeof i.Title === 'string' ? i.Title : '', author: typeof i.Author === 'string' ? i.Author : '' };
    } catch {}
    return { pagesTotal: total, pages, info };
  } finally {
    await doc.destroy();
  }
}

parentPort.on('message', async (msg) => {
  let reply;
  try {
    reply = await extract(msg);
  } catch (err) {
    reply = { error: { kind: 'malformed', message: String((err && err.message) || err) } };
  }
  parentPort.postMessage({ id: msg.id, ...reply });
});
