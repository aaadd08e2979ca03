/// <reference types="vite/client" />
import type { SiftApi } from '../../shared/ipc/contract';

declare global {
  interface Window {
    sift: SiftApi;
  }
}
