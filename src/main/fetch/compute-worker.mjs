// The compute worker: jq programs and grep expressions run here, in a thread the pipeline
// can terminate, because a jq program can loop forever and a regular expression can
// backtrack for longer than the universe (^(a+)+$ on 40 a's and a b).
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let jqHandle;

async function jq({ input, program }) {
  if (!jqHandle) {
    const { loadJq } = require('jq-wasm');
    jqHandle = await loadJq();
  }
  let out;
  try {
    out = jqHandle.raw(input, program);
  } catch (err) {
    // A WebAssembly trap (a JSON document 10,000 levels deep overflows jq's stack) leaves the
    // instance's memory corrupt: every later program would fail the same way. Start afresh.
    jqHandle = undefined;
    return { error: `jq ran out of memory or stack (${String((err && err.message) || err)}): the document may be nested too deeply, or the program may never end` };
  }
  const { stdout, stderr, exitCode } = out;
  if (exitCode !== 0 && stderr) return { error: stderr.trim(), exitCode };
  return { output: stdout.replace(/\n$/, '') };
}

// With origins, also where the output came from: `hits`, the index of every matching line
// of the text, and `from`, the index each output line had in the text (-1 for a "--").
function grep({ text, pattern, flags, context, origins }) {
  let re;
  try {
    re = new RegExp(pattern, flags);
  } catch (err) {
    return { error: String(err.message || err) };
  }
  const lines = text.split(/\r?\n/);
  const hits = [];
  for (let i = 0; i < lines.length; i++) {
    re.lastIndex = 0;
    if (re.test(lines[i])) hits.push(i);
  }
  const where = (from) => (origins ? { hits, from } : {});
  if (!context) return { output: hits.map((i) => lines[i]).join('\n'), matches: hits.length, ...where(hits) };
  // grep -C 2: each hit with 2 lines either side; overlapping windows merge; groups are
  // separated by a line "--".
  const C = 2;
  const out = [];
  const from = [];
  let end = -1;
  for (const i of hits) {
    const first = Math.max(0, i - C);
    const last = Math.min(lines.length - 1, i + C);
    if (end >= 0 && first > end + 1) {
      out.push('--');
      from.push(-1);
    }
    for (let j = Math.max(first, end + 1); j <= last; j++) {
      out.push(lines[j]);
      from.push(j);
    }
    end = Math.max(end, last);
  }
  return { output: out.join('\n'), matches: hits.length, ...where(from) };
}

parentPort.on('message', async (msg) => {
  let reply;
  try {
    reply = msg.op === 'jq' ? await jq(msg) : msg.op === 'grep' ? grep(msg) : { error: `unknown op ${msg.op}` };
  } catch (err) {
    reply = { error: String((err && err.message) || err) };
  }
  parentPort.postMessage({ id: msg.id, ...reply });
});
