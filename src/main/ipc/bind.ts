import type { IpcMainInvokeEvent } from 'electron';
import { METHODS, channelOf, type Envelope } from '../../shared/ipc/contract';
import { dispatch, type DispatchOptions, type Handlers } from './dispatch';

/** The part of Electron's ipcMain this binding uses (a stand-in in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: SenderEvent, ...args: unknown[]) => Promise<Envelope>): void;
  removeHandler(channel: string): void;
}
export type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> | { senderFrame: { url: string; parent?: unknown } | null };

export interface BindOptions extends DispatchOptions {
  /** True when the frame may talk to main: our window's top frame at our own URL. */
  isTrustedSender(event: SenderEvent): boolean;
}

/**
 * Registers every channel of the contract, and only those. Each call is checked for its
 * sender frame, then validated and dispatched. Returns a function that unregisters them.
 */
export function bindContract(ipc: IpcMainLike, handlers: Handlers, opts: BindOptions): () => void {
  for (const method of METHODS) {
    ipc.handle(channelOf(method), async (event, ...args) => {
      if (!opts.isTrustedSender(event)) {
        return {
          ok: false,
          error: { code: 'forbidden_sender', status: 403, message: 'this frame may not call Sift', hint: '' },
        };
      }
      return dispatch(handlers, method, args[0], opts);
    });
  }
  return () => {
    for (const method of METHODS) ipc.removeHandler(channelOf(method));
  };
}

/** A sender check for a renderer loaded from `appUrl` (file:// in the app, http:// in dev). */
export function trustedSenderFor(appUrl: string): (event: SenderEvent) => boolean {
  const want = stripHash(appUrl);
  return (event) => {
    const frame = event.senderFrame as { url: string; parent?: unknown } | null;
    if (!frame) return false;
    if (frame.parent) return false; // subframes never get the API
    return stripHash(frame.url) === want;
  };
}

function stripHash(u: string): string {
  try {
    const url = new URL(u);
    url.hash = '';
    url.search = '';
    return url.href;
  } catch {
    return '';
  }
}
