import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const engine = pathToFileURL(path.resolve(__dirname, '../../src/main/fetch/pdf-engine.mjs')).href;

/** Runs `body` in a fresh worker thread (globals of its own, as the PDF pool's workers have) after loading pdf-engine.mjs. */
function inFreshThread(body: string): Promise<unknown> {
  const code = `const { parentPort } = require('node:worker_threads');
    const nativePush = Array.prototype.push;
    import(${JSON.stringify(engine)}).then((m) => parentPort.postMessage((${body})(m, nativePush)), (e) => parentPort.postMessage({ error: String(e) }));`;
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
