import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startSync } from './store/actions';
import { keepDraft } from './store/draft';
import './styles.css';

// Outside React: StrictMode mounts effects twice, and the events must feed the store once.
startSync();
// Before the composer is made: its paste box takes the restored list when it is created.
keepDraft();

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
