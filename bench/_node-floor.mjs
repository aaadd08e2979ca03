// The least a Node program does for what `sift batch --mode raw --out` does per page, as a
// reference line of bench/batch.ts: GET each URL in turn through undici with the
// connection kept (the keep-alive margin Sift uses), commit the body to SQLite (WAL,
// synchronous=NORMAL, one transaction a page), write it to a file of its own. No guard,
// no page judging, no search index, no progress, no export layout.
// Usage: node bench/_node-floor.mjs LIST OUTDIR
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Agent } from 'undici';

const [list, out] = process.argv.slice(2);
const urls = readFileSync(list, 'utf8').split('\n').filter(Boolean);
mkdirSync(out, { recursive: true });
const db = new Database(`${out}.db`);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE pages (idx INTEGER PRIMARY KEY, url TEXT NOT NULL, body TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO pages (idx, url, body) VALUES (?, ?, ?)');
const agent = new Agent({ keepAliveTimeoutThreshold: 500 });
for (const [idx, url] of urls.entries()) {
  const u = new URL(url);
  const res = await agent.request({ origin: u.origin, path: u.pathname + u.search, method: 'GET' });
  const body = await res.body.text();
  insert.run(idx, url, body);
  writeFileSync(path.join(out, `${idx}.html`), body, { flag: 'wx' });
}
await agent.close();
db.close();
