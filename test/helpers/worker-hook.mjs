// Preloaded into a `sift` child (NODE_OPTIONS=--import …): says on stderr, in a line of its
// own, each worker thread the main thread starts ("[worker-hook] html-worker.mjs"), so a test
// can act while a worker holds the work. node:worker_threads' Worker is replaced before the
// CLI loads, and syncBuiltinESMExports hands the replacement to its `import { Worker }`.
import workerThreads from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

if (workerThreads.isMainThread) {
  const Base = workerThreads.Worker;
  workerThreads.Worker = class extends Base {
    constructor(file, options) {
      super(file, options);
      process.stderr.write(`[worker-hook] ${path.basename(String(file))}\n`);
    }
  };
  syncBuiltinESMExports();
}
