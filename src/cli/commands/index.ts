import type { CommandEntry } from '../command';

/**
 * Every `sift` subcommand, in the order `sift --help` lists them: one line each, the module
 * imported only when the command runs (see CommandEntry). The summary here is the one
 * `sift --help` prints; a test checks it against the command's own.
 */
export const commands: CommandEntry[] = [
  { name: 'fetch', summary: 'fetch one URL and print what is behind it', load: async () => (await import('./fetch')).fetchCommand },
  { name: 'extract', summary: 'extract local files (html, pdf, json, txt) without fetching', load: async () => (await import('./extract')).extractCommand },
  { name: 'parse', summary: 'show how Sift reads a URL list: one JSON line per target', load: async () => (await import('./parse')).parseCommand },
  { name: 'batch', summary: 'fetch a list of URLs as one job, with progress; print or export the results', load: async () => (await import('./batch')).batchCommand },
  { name: 'jobs', summary: 'list the jobs in the database, newest first', load: async () => (await import('./jobs')).jobsCommand },
  { name: 'status', summary: 'one job and its targets', load: async () => (await import('./jobs')).statusCommand },
  { name: 'cancel', summary: 'cancel a job', load: async () => (await import('./jobs')).cancelCommand },
  { name: 'export', summary: 'export a job’s results to files', load: async () => (await import('./jobs')).exportCommand },
  { name: 'search', summary: 'find stored results that contain words, best first, with where they are', load: async () => (await import('./search')).searchCommand },
];
