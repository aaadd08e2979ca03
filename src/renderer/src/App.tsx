import { useStore } from './store';
import { Sidebar } from './components/jobs/Sidebar';
import { JobView } from './components/jobs/JobView';
import { Composer } from './components/composer/Composer';
import { SettingsPanel } from './components/settings/SettingsPanel';
import { ActivityPanel } from './components/activity/ActivityPanel';
import { Notices } from './components/common/Notices';
import { SearchView } from './components/search/SearchView';

export function App(): React.JSX.Element {
  const view = useStore((s) => s.view);
  return (
    <div className="app">
      <Sidebar />
      <main className="main">
        {view.kind === 'job' ? (
          <JobView key={view.id} id={view.id} />
        ) : view.kind === 'settings' ? (
          <SettingsPanel />
        ) : view.kind === 'activity' ? (
          <ActivityPanel />
        ) : view.kind === 'search' ? (
          <SearchView />
        ) : (
          <Composer />
        )}
      </main>
      <Notices />
    </div>
  );
}
