import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../../shared/ipc/contract';

/** Version and database path: what a bug report needs, out of the way until asked for. */
export function AboutBox(): React.JSX.Element {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    // Nothing to show on failure: every other panel reports main being unreachable.
    window.sift.appInfo().then(setInfo, () => {});
  }, []);
  // Its line is there from the start, the name and version filled in when main answers: the
  // line appearing a moment later shrank the job list above it, and pushed the job on screen,
  // just scrolled into view at the list's end, half out of it.
  return (
    <details className="about">
      <summary>{info ? `${info.name} ${info.version}` : 'About'}</summary>
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
    </details>
  );
}
