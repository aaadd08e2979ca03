import type { ErrorInfo } from '../errors';
import { EVENTS, METHODS, type Envelope, type EventName, type SiftApi } from './contract';

/** How an API object reaches main: Electron's ipcRenderer in the preload, a WebSocket in tests. */
export interface Transport {
  invoke(method: string, req: unknown): Promise<Envelope>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

/**
 * What a failed call rejects with: a plain frozen {code, status, message, hint}. Not an
 * Error: Electron's contextBridge copies only an Error's message across worlds, and the
 * renderer needs the code and the hint. The bridge rejects the same way, so the renderer
 * cannot tell the two apart.
 */
export type ApiError = Readonly<ErrorInfo & { name: 'SiftError' }>;

/** Builds window.sift from the contract's names: one function per channel, nothing else. */
export function createApi(transport: Transport): SiftApi {
  const api: Record<string, unknown> = {};
  for (const method of METHODS) {
    api[method] = async (req: unknown = {}) => {
      const env = await transport.invoke(method, req);
      if (env.ok) return env.value;
      const { code, status, message, hint } = env.error;
      throw Object.freeze({ name: 'SiftError', code, status, message, hint }) as ApiError;
    };
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!(EVENTS as string[]).includes(event)) throw new Error(`unknown event: ${String(event)}`);
    // Hand the listener only the payload, never an IpcRendererEvent.
    return transport.subscribe(event, (payload) => listener(payload));
  };
  return Object.freeze(api) as SiftApi;
}
