import { useEffect } from 'react';

/**
 * Gives focus back to what had it when a dialog opened (the button that opened it) when the
 * dialog goes. React removes the <dialog> without close(), so the browser's own return of
 * focus never runs: after Esc a keyboard user was left on the page's body.
 * Call it before the effect that opens the dialog, so it sees the focus the dialog takes over.
 */
export function useRestoreFocus(): void {
  useEffect(() => {
    const opener = document.activeElement;
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
}
