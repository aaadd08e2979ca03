import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { AboutBox } from '../common/AboutBox';
import { JobList } from './JobList';
import { SidebarSearch } from '../search/SidebarSearch';

export function Sidebar(): React.JSX.Element {
  const { kind, setView } = useStore(useShallow((s) => ({ kind: s.view.kind, setView: s.setView })));
  return (
    <nav className="sidebar" aria-label="Jobs and panels">
      <div className="sidebar-head">
        <span className="brand">Sift</span>
        <button type="button" className={`primary${kind === 'compose' ? ' active' : ''}`} onClick={() => setView({ kind: 'compose' })} data-testid="nav-new">
          New list
        </button>
      </div>
      <SidebarSearch />
      <JobList />
      <div className="sidebar-foot">
        <button type="button" className={`nav${kind === 'activity' ? ' active' : ''}`} onClick={() => setView({ kind: 'activity' })} data-testid="nav-activity">
          Activity
        </button>
        <button type="button" className={`nav${kind === 'settings' ? ' active' : ''}`} onClick={() => setView({ kind: 'settings' })} data-testid="nav-settings">
          Settings
        </button>
        <AboutBox />
      </div>
    </nav>
  );
}
