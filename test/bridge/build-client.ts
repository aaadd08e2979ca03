import path from 'node:path';
import { build } from 'vite';

let cached: Promise<string> | null = null;

/** Bundles test/bridge/client.ts (and the shared createApi it uses) into one IIFE script. */
export function bridgeClientScript(): Promise<string> {
  cached ??= (async () => {
    const out = await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        write: false,
        minify: false,
        lib: { entry: path.join(__dirname, 'client.ts'), formats: ['iife'], name: 'SiftBridge' },
      },
    });
    const outputs = Array.isArray(out) ? out : [out];
    for (const o of outputs) {
      if ('output' in o) {
        const chunk = o.output.find((c) => c.type === 'chunk');
        if (chunk && chunk.type === 'chunk') return chunk.code;
      }
    }
    throw new Error('bridge client build produced no chunk');
  })();
  return cached;
}
