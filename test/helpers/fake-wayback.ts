import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './fetch-server';

/** One archived capture: what the site answered at that moment. */
export interface Capture {
  /** 14 digits, as the Wayback Machine writes them: 20230102030405. */
  timestamp: string;
  status?: number;
  contentType?: string;
  body: string | Buffer;
}

export interface FakeWayback {
  server: TestServer;
  /** The availability endpoint, as settings.archiveService takes it. */
  service: string;
  /** Captures by the original URL they are of. */
  captures: Map<string, Capture[]>;
  /** Replaces the availability API's answer (an outage, a 429, a hang); undefined: the real one. */
  available?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Replaces a snapshot's answer; return false to let the real one answer. */
  snapshot?: (req: IncomingMessage, res: ServerResponse) => boolean;
  close(): Promise<void>;
}

const TOOLBAR = (ts: string): string =>
  `<script src="/_static/js/wombat.js"></script><link rel="stylesheet" href="/_static/css/banner-styles.css">\n` +
  `<!-- BEGIN WAYBACK TOOLBAR INSERT --><div id="wm-ipp-base"><div id="wm-ipp"><p>The Wayback Machine - captured ${ts}. ` +
  `Go to the <a href="/web/">Wayback Machine home</a> or see all captures of this page in the calendar.</p></div></div><!-- END WAYBACK TOOLBAR INSERT -->\n`;

/** The Wayback Machine's own page for a URL it has no capture of (served with 404). */
const NOT_ARCHIVED =
  '<!DOCTYPE html><html><head><title>Wayback Machine</title></head><body><div id="error"><h2>Hrm.</h2>' +
  '<p>The Wayback Machine has not archived that URL.</p><p>This page is not available on the web because page does not exist</p></div></body></html>';

/**
 * A loopback archive that answers as the Wayback Machine does: /wayback/available?url=U
 * gives the closest capture ({"url","archived_snapshots":{"closest":{...}}}, or {} for none);
 * /web/<ts>/<url> replays it with the toolbar and its links rewritten into the archive;
 * /web/<ts>id_/<url> replays the bytes the site sent, with the status it sent; a timestamp
 * that is not a capture's redirects (302) to the nearest capture.
 */
export async function startFakeWayback(): Promise<FakeWayback> {
  const captures = new Map<string, Capture[]>();
  const server = await startServer();
  const wb: FakeWayback = {
    server,
    service: `${server.origin}/wayback/available`,
    captures,
    close: () => server.close(),
  };
  server.fallback((req, res) => {
    const u = new URL(req.url ?? '/', server.origin);
    if (u.pathname === '/wayback/available') {
      if (wb.available?.(req, res)) return;
      const asked = u.searchParams.get('url') ?? '';
      const list = captures.get(asked) ?? [];
      const last = list[list.length - 1];
      const closest = last && { status: String(last.status ?? 200), available: true, url: `http://${u.host}/web/${last.timestamp}/${asked}`, timestamp: last.timestamp };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: asked, archived_snapshots: closest ? { closest } : {} }));
      return;
    }
    const m = /^\/web\/(\d{1,14})(id_)?\/(.+)$/.exec(u.pathname + u.search);
    if (!m) {
      res.writeHead(404, { 'content-type': 'text/html' }).end(NOT_ARCHIVED);
      return;
    }
    if (wb.snapshot?.(req, res)) return;
    const [, ts = '', raw, original = ''] = m;
    const list = captures.get(original) ?? [];
    if (!list.length) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(NOT_ARCHIVED);
      return;
    }
    const exact = list.find((c) => c.timestamp === ts);
    if (!exact) {
      const near = list.reduce((a, b) => (Math.abs(Number(b.timestamp) - Number(ts.padEnd(14, '0'))) < Math.abs(Number(a.timestamp) - Number(ts.padEnd(14, '0'))) ? b : a));
      res.writeHead(302, { location: `/web/${near.timestamp}${raw ?? ''}/${original}` }).end();
      return;
    }
    const type = exact.contentType ?? 'text/html; charset=utf-8';
    if (raw || !/html/.test(type)) {
      res.writeHead(exact.status ?? 200, { 'content-type': type }).end(exact.body);
      return;
    }
    // The replay: links into the archive, the toolbar after <body>.
    const html = String(exact.body)
      .replace(/(href|src)="([^"#][^"]*)"/g, (_all, attr: string, href: string) => `${attr}="/web/${ts}/${new URL(href, original).href}"`)
      .replace(/<body[^>]*>/, (b) => `${b}${TOOLBAR(ts)}`);
    res.writeHead(exact.status ?? 200, { 'content-type': type }).end(html);
  });
  return wb;
}
