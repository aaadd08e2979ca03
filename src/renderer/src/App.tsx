import { useEffect, useState } from 'react';
import type { AppInfo } from '../../shared/ipc/contract';

export function App(): React.JSX.Element {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    window.sift.appInfo().then(setInfo, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  return (
    <main className="app">
      <h1>Sift</h1>
      {error && <p role="alert">{error}</p>}
      {info && (
        <dl className="app-info" data-testid="app-info">
          <dt>Version</dt>
          <dd data-testid="app-version">{info.version}</dd>
          <dt>Database</dt>
          <dd data-testid="app-db">{info.dbPath}</dd>
          <dt>Platform</dt>
          <dd data-testid="app-platform">{info.platform}</dd>
        </dl>
      )}
    </main>
  );
}
