/**
 * The preload: exposes the contract as window.sift and nothing else. Every method is one
 * named function; listeners get the payload only, never an IpcRendererEvent.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createApi } from '../shared/ipc/client';
import { channelOf, eventChannelOf, type Envelope } from '../shared/ipc/contract';

const api = createApi({
  invoke: (method, req) => ipcRenderer.invoke(channelOf(method), req) as Promise<Envelope>,
  subscribe(event, listener) {
    const wrapped = (_e: unknown, payload: unknown): void => listener(payload);
    ipcRenderer.on(eventChannelOf(event), wrapped);
    return () => {
      ipcRenderer.removeListener(eventChannelOf(event), wrapped);
    };
  },
});

contextBridge.exposeInMainWorld('sift', api);
