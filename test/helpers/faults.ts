/**
 * One fault-injecting HTTP server on loopback: every way a server on the internet can
 * misbehave that Sift must survive, one path each. Targets point at `${base}${FAULTS[i].path}`
 * with the fault's options; the reliability suite runs them through real batches.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGzip } from 'node:zlib';
import type { Options } from '../../src/shared/types';
import { makePdf } from './fetch-pdf';

export interface Fault {
  name: string;
  path: string;
  options?: Options;
  /**
   * What the target must end as: done (a wrong charset is not an error), or failed with an
   * error starting with one of these (more than one where two limits race: an endless jq
   * program meets either the deadline or jq's memory ceiling first).
   */
  expect: 'done' | string[];
  /** How the hint of a failure starts, where it must point at one cause. */
  hint?: string;
}

// 10 MiB of decompressed zeros per 10 KiB of gzip: 200 MiB inflates past the 50 MiB body cap.
const BOMB_MIB = 200;
// "a 50 MB single line": over the runner's 8 MiB result cap, under the 50 MiB body cap.
const LINE_BYTES = 50_000_000;
// "10 MB of nested divs": 5 bytes per <div>, 2,000,000 deep.
const DIV_DEPTH = 2_000_000;
// "JSON nested 10,000 deep".
const JSON_DEPTH = 10_000;
// ^(a+)+$ backtracks 2^n on n a's followed by a "!": 40 is hours of CPU.
const REDOS_LINE = `${'a'.repeat(40)}!`;

export const FAULTS: Fault[] = [
  { name: 'stall before headers', path: '/stall', expect: ['timeout'] },
  { name: 'trickle', path: '/trickle', expect: ['timeout'] },
  { name: 'reset mid-body', path: '/reset', expect: ['internal error'] },
  { name: 'gzip bomb', path: '/gzip-bomb', expect: ['document too long'] },
  { name: 'redirect loop', path: '/redirect-loop', expect: ['internal error'] },
  { name: '1 MB headers', path: '/huge-headers', expect: ['internal error'] },
  { name: 'content-length mismatch', path: '/length-mismatch', expect: ['internal error'] },
  { name: 'wrong charset', path: '/wrong-charset', expect: 'done' },
  { name: '50 MB single line', path: '/long-line', expect: ['document too long'] },
  { name: '10 MB of nested divs', path: '/nested-divs', expect: ['document too long'] },
  { name: 'PDF malformed', path: '/pdf-malformed', expect: ['malformed PDF'] },
  { name: 'PDF encrypted', path: '/pdf-encrypted', expect: ['encrypted PDF'] },
  { name: 'PDF empty', path: '/pdf-empty', expect: ['malformed PDF'] },
  // JSON.stringify cannot pretty-print it (stack); it comes back as sent.
  { name: 'JSON nested 10,000 deep', path: '/json-deep', expect: 'done' },
  { name: 'JSON nested 10,000 deep through jq', path: '/json-deep', options: { jq: '.' }, expect: ['jq: out of memory'] },
  { name: 'jq that never ends (def f: f; f)', path: '/data.json', options: { jq: 'def f: f; f' }, expect: ['timeout', 'jq: out of memory'] },
  { name: 'jq that never ends ([range(infinite)])', path: '/data.json', options: { jq: '[range(infinite)]' }, expect: ['timeout', 'jq: out of memory'] },
  // V8 runs it again on its linear-time engine once it backtracks too long: an answer, fast.
  { name: 'catastrophic regex in grep', path: '/redos', options: { grep: '^(a+)+$' }, expect: 'done' },
  // One that only the u flag can read (a \p{…} class) stays on the backtracking engine: the deadline stops it.
  { name: 'catastrophic Unicode regex in grep', path: '/redos', options: { grep: '^(\\p{Ll}+)+$' }, expect: ['timeout'], hint: 'Extracting took longer than the deadline' },
];

export interface FaultServer {
  base: string;
  close(): Promise<void>;
}

let bomb: Buffer | undefined;
async function gzipBomb(): Promise<Buffer> {
  if (bomb) return bomb;
  const gz = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gz.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise<void>((r) => gz.on('end', () => r()));
  const mib = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < BOMB_MIB; i++) if (!gz.write(mib)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await done;
  return (bomb = Buffer.concat(parts));
}

export async function startFaultServer(): Promise<FaultServer> {
  const gz = await gzipBomb();
  const pdfGood = makePdf({ pages: [['Fine page']] });
  const pdfEncrypted = makePdf({ pages: [['Secret']], encrypted: true });
  const pdfMalformed = Buffer.concat([pdfGood.subarray(0, 200), Buffer.from('\n%% garbage where the xref should be\n%%EOF\n')]);
  const deepJson = '['.repeat(JSON_DEPTH) + ']'.repeat(JSON_DEPTH);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    switch (p) {
      case '/stall':
        return; // never answers; the socket stays open until the client gives up
      case '/trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        // One byte every 100 ms: never silent long enough for the body timeout, never done.
        const t = setInterval(() => res.write('a'), 100);
        timers.add(t);
        res.on('close', () => clearInterval(t));
        return;
      }
      case '/reset':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
        res.write('x'.repeat(1000));
        setTimeout(() => req.socket.destroy(), 20);
        return;
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(gz.length) });
        return res.end(gz);
      case '/redirect-loop':
        res.writeHead(302, { location: '/redirect-loop' });
        return res.end();
      case '/huge-headers': {
        // Written raw: Node's own server refuses to send 1 MB of headers.
        const s = req.socket;
        s.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n');
        for (let i = 0; i < 1024; i++) s.write(`x-pad-${i}: ${'h'.repeat(1000)}\r\n`);
        s.end('content-length: 2\r\n\r\nok');
        return;
      }
      case '/length-mismatch': {
        const s = req.socket;
        s.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\nconnection: close\r\n\r\nonly ten b');
        return;
      }
      case '/wrong-charset':
        // Says Shift_JIS, is windows-1252: the text is garbled, the target still ends.
        res.writeHead(200, { 'content-type': 'text/plain; charset=shift_jis' });
        return res.end(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x80, 0x0a]));
      case '/long-line':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(LINE_BYTES) });
        return res.end(Buffer.alloc(LINE_BYTES, 0x61));
      case '/nested-divs':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!doctype html><html><head><title>deep</title></head><body>${'<div>'.repeat(DIV_DEPTH)}bottom</body></html>`);
      case '/pdf-malformed':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(pdfMalformed);
      case '/pdf-encrypted':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(pdfEncrypted);
      case '/pdf-empty':
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '0' });
        return res.end();
      case '/json-deep':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(deepJson);
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ items: [1, 2, 3] }));
      case '/redos':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end(`first line\n${REDOS_LINE}\nlast line\n`);
      case '/ok':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('all is well\n');
      default:
        res.writeHead(404).end();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
