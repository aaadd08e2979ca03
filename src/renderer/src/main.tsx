import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startSync } from './store/actions';
import './styles.css';

// Outside React: StrictMode mounts effects twice, and the events must feed the store once.
startSync();

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
