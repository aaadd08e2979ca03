/**
 * The renderer side of the test bridge: installs window.sift over a WebSocket, built from
 * the same createApi the preload uses, so the renderer cannot tell which host it talks to.
 * Bundled to one IIFE (test/bridge/build-client.ts) and injected before the page's scripts.
 */
import { createApi } from '../../src/shared/ipc/client';
import type { Envelope } from '../../src/shared/ipc/contract';

type Pending = { resolve: (e: Envelope) => void };

export function installSiftBridge(wsUrl: string): void {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const queue: string[] = [];
  let ws: WebSocket;
  let open = false;

  const connect = (): void => {
    ws = new WebSocket(wsUrl);
    ws.onopen = () => {
      open = true;
      for (const m of queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (ev: MessageEvent<string>) => {
      const msg = JSON.parse(ev.data) as { t: 'res'; id: number; env: Envelope } | { t: 'event'; event: string; payload: unknown };
      if (msg.t === 'res') {
        pending.get(msg.id)?.resolve(msg.env);
        pending.delete(msg.id);
      } else {
        for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
      }
    };
    ws.onclose = () => {
      open = false;
      for (const p of pending.values()) {
        p.resolve({ ok: false, error: { code: 'disconnected', status: 503, message: 'lost the connection to Sift', hint: 'Reload the window.' } });
      }
      pending.clear();
    };
  };
  connect();

  const send = (m: string): void => {
    if (open) ws.send(m);
    else queue.push(m);
  };

  const api = createApi({
    invoke(method, req) {
      const id = nextId++;
      return new Promise<Envelope>((resolve) => {
        pending.set(id, { resolve });
        send(JSON.stringify({ t: 'call', id, method, req }));
      });
    },
    subscribe(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  });
  Object.defineProperty(window, 'sift', { value: api, writable: false, configurable: false });
}

(globalThis as unknown as { installSiftBridge: typeof installSiftBridge }).installSiftBridge = installSiftBridge;
