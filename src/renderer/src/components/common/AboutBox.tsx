import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../../shared/ipc/contract';

/** Version and database path: what a bug report needs, out of the way until asked for. */
export function AboutBox(): React.JSX.Element | null {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    // Nothing to show on failure: every other panel reports main being unreachable.
    window.sift.appInfo().then(setInfo, () => {});
  }, []);
  if (!info) return null;
  return (
    <details className="about">
      <summary>
        {info.name} {info.version}
      </summary>
      <dl className="app-info" data-testid="app-info">
        <dt>Version</dt>
        <dd data-testid="app-version">{info.version}</dd>
        <dt>Database</dt>
        <dd data-testid="app-db">{info.dbPath}</dd>
        <dt>Platform</dt>
        <dd data-testid="app-platform">{info.platform}</dd>
      </dl>
    </details>
  );
}
