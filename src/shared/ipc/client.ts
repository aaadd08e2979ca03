import { SiftError } from '../errors';
import { EVENTS, METHODS, type Envelope, type EventName, type SiftApi } from './contract';

/** How an API object reaches main: Electron's ipcRenderer in the preload, a WebSocket in tests. */
export interface Transport {
  invoke(method: string, req: unknown): Promise<Envelope>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

/** Builds window.sift from the contract's names: one function per channel, nothing else. */
export function createApi(transport: Transport): SiftApi {
  const api: Record<string, unknown> = {};
  for (const method of METHODS) {
    api[method] = async (req: unknown = {}) => {
      const env = await transport.invoke(method, req);
      if (env.ok) return env.value;
      throw SiftError.fromInfo(env.error);
    };
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!(EVENTS as string[]).includes(event)) throw new Error(`unknown event: ${String(event)}`);
    // Hand the listener only the payload, never an IpcRendererEvent.
    return transport.subscribe(event, (payload) => listener(payload));
  };
  return Object.freeze(api) as SiftApi;
}
