// The HTML worker run from the sources (the tests, a checkout without its bundle): tsx's
// require hook, then html-worker.ts through it. A .cjs file, so it loads as CommonJS however
// the thread starts (--import in NODE_OPTIONS makes node load a worker's .ts through its ES
// module loader, which knows no .ts; and tsx's own --import registers its hooks too late for
// the worker's first module on Node 20).
'use strict';
require('tsx/cjs');
require('./html-worker.ts');
