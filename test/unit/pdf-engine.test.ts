import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/fetch-pdf';

const engine = pathToFileURL(path.resolve(__dirname, '../../src/main/fetch/pdf-engine.mjs')).href;

/** Runs `body` in a fresh worker thread (globals of its own, as the PDF pool's workers have) after loading pdf-engine.mjs. */
function inFreshThread(body: string): Promise<unknown> {
  const code = `const { parentPort } = require('node:worker_threads');
    const nativePush = Array.prototype.push;
    import(${JSON.stringify(engine)}).then(async (m) => parentPort.postMessage(await (${body})(m, nativePush))).catch((e) => parentPort.postMessage({ error: String(e) }));`;
  const w = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    w.once('message', (m) => void w.terminate().then(() => resolve(m)));
    w.once('error', reject);
  });
}

describe('pdf.js as the PDF worker loads it', () => {
  it('leaves the thread the native Array.prototype.push (the legacy build’s core-js swaps in a slower one on Node 20)', async () => {
    const r = await inFreshThread(`(m, nativePush) => ({ native: Array.prototype.push === nativePush, enumerable: Object.keys(Array.prototype).includes('push'), inThreadWorker: typeof globalThis.pdfjsWorker?.WorkerMessageHandler, getDocument: typeof m.pdfjs.getDocument })`);
    expect(r).toEqual({ native: true, enumerable: false, inThreadWorker: 'function', getDocument: 'function' });
  });
});

/** [a b c d e f] · [a b c d e f], PDF's row-vector convention (pdf.js's Util.transform). */
const times = (m1: number[], m2: number[]): number[] => [
  m1[0]! * m2[0]! + m1[2]! * m2[1]!,
  m1[1]! * m2[0]! + m1[3]! * m2[1]!,
  m1[0]! * m2[2]! + m1[2]! * m2[3]!,
  m1[1]! * m2[2]! + m1[3]! * m2[3]!,
  m1[0]! * m2[4]! + m1[2]! * m2[5]! + m1[4]!,
  m1[1]! * m2[4]! + m1[3]! * m2[5]! + m1[5]!,
];

describe('pdf.js text positions as patched (scripts/patch-deps.mjs) and with streams inflated at once', () => {
  it('places each run at page matrix × text matrix × font size, scaling and rise, and restores the state Q pops', async () => {
    // A rotated and scaled page matrix, horizontal scaling and rise inside it; a smaller font
    // inside q/Q; then text after Q, which must be back in the outer font size and matrix.
    const ops = [
      'BT /F1 20 Tf ET',
      'q 0.8 0.1 -0.1 0.9 30.5 40.25 cm',
      'BT /F1 11 Tf 120 Tz 2.5 Ts 1 0.2 0 1 72.25 700.5 Tm (Tilted) Tj ET',
      'q BT /F1 8 Tf 100 Tz 0 Ts 1 0 0 1 72 650 Tm (Inner) Tj ET Q',
      'Q',
      'BT 1 0 0 1 72 600 Tm (Outer) Tj ET',
    ].join('\n');
    const data = Array.from(makePdf({ pages: [], ops: [ops], deflate: true }));
    const items = (await inFreshThread(`async (m) => {
      const doc = await m.pdfjs.getDocument({ ...m.DOC_OPTIONS, data: new Uint8Array(${JSON.stringify(data)}) }).promise;
      const page = await doc.getPage(1);
      const tc = await page.getTextContent(m.TEXT_OPTIONS);
      return tc.items.filter((i) => i.str.trim()).map((i) => ({ str: i.str, transform: i.transform }));
    }`)) as { str: string; transform: number[] }[];
    const cm = [0.8, 0.1, -0.1, 0.9, 30.5, 40.25];
    const expected = [
      { str: 'Tilted', transform: times(cm, times([1, 0.2, 0, 1, 72.25, 700.5], [11 * 1.2, 0, 0, 11, 0, 2.5])) },
      { str: 'Inner', transform: times(cm, times([1, 0, 0, 1, 72, 650], [8, 0, 0, 8, 0, 0])) },
      { str: 'Outer', transform: [20, 0, 0, 20, 72, 600] },
    ];
    expect(items.map((i) => i.str)).toEqual(expected.map((e) => e.str));
    items.forEach((item, k) => item.transform.forEach((v, j) => expect(v, `${item.str}[${j}]`).toBeCloseTo(expected[k]!.transform[j]!, 9)));
  });

  it('inflates as the web stream does, and leaves what it does not do to it', async () => {
    const r = await inFreshThread(`async (m) => {
      const zlib = require('node:zlib');
      const read = async (bytes, format = 'deflate') => {
        try {
          const { readable, writable } = new DecompressionStream(format);
          const w = writable.getWriter();
          await w.ready;
          w.write(bytes).then(() => w.close()).catch(() => {});
          const chunks = [];
          for await (const c of readable) chunks.push(Buffer.from(c));
          return Buffer.concat(chunks).toString();
        } catch (e) {
          return 'failed: ' + e.message;
        }
      };
      const good = zlib.deflateSync(Buffer.from('hello, stream'));
      return {
        ours: DecompressionStream === m.InflateAtOnce,
        whole: await read(good),
        trailing: await read(Buffer.concat([good, Buffer.from('junk')])),
        truncated: await read(good.subarray(0, 8)),
        garbage: await read(Buffer.from('not zlib')),
        raw: await read(zlib.deflateRawSync(Buffer.from('raw deflate')), 'deflate-raw'),
        webForRaw: !(new DecompressionStream('deflate-raw') instanceof m.InflateAtOnce),
      };
    }`);
    expect(r).toEqual({
      ours: true,
      whole: 'hello, stream',
      trailing: 'hello, stream',
      truncated: 'failed: unexpected end of file',
      garbage: 'failed: incorrect header check',
      raw: 'raw deflate',
      webForRaw: true,
    });
  });
});

describe('the pdf.js that Sift runs', () => {
  it('is the patched one (npm ci and every CLI build apply scripts/patch-deps.mjs)', async () => {
    const { PATCHES } = (await import(path.resolve(__dirname, '../../scripts/patch-deps.mjs'))) as { PATCHES: { file: string; edits: [string, string][] }[] };
    const pdf = PATCHES.filter((p) => p.file.includes('pdfjs-dist'));
    expect(pdf.length).toBeGreaterThan(0);
    for (const { file, edits } of pdf) {
      const src = readFileSync(path.resolve(__dirname, '../..', file), 'utf8');
      for (const [from, to] of edits) {
        expect(src).not.toContain(from);
        expect(src).toContain(to);
      }
    }
  });
});
