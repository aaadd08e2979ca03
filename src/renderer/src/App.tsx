import { useEffect, useRef } from 'react';
import { useStore } from './store';
import { Sidebar } from './components/jobs/Sidebar';
import { JobView } from './components/jobs/JobView';
import { Composer } from './components/composer/Composer';
import { SettingsPanel } from './components/settings/SettingsPanel';
import { ActivityPanel } from './components/activity/ActivityPanel';
import { Notices } from './components/common/Notices';
import { SearchView } from './components/search/SearchView';
import { focusHeading, useFocusRescue } from './lib/useFocusRescue';

export function App(): React.JSX.Element {
  const view = useStore((s) => s.view);
  const main = useRef<HTMLElement>(null);
  const shown = useRef(view);
  const owed = useRef(false);
  // A new job's heading comes with its first event, after the view that shows it.
  const ready = useStore((s) => s.view.kind !== 'job' || !!s.jobs[s.view.id]);
  useFocusRescue(main);
  // A view that replaced the one holding focus (a submit from the paste box, a delete) gives
  // its heading the focus: left on the body, a keyboard user's next Tab started over in the
  // sidebar and a screen reader said nothing of the new view. The first view leaves focus be.
  useEffect(() => {
    if (shown.current !== view) owed.current = true;
    shown.current = view;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!owed.current || !lost) {
      owed.current = false;
      return;
    }
    if (focusHeading(main.current)) owed.current = false;
  }, [view, ready]);
  return (
    <div className="app">
      <Sidebar />
      {/* The notices take room of their own under the view, which gives way: fixed over the
          window's corner, "Started a new job" hid the table's last two rows at 1024 × 768. */}
      <div className="main-column">
        <main className="main" ref={main}>
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
    </div>
  );
}
