// Preloaded into a `sift` child (NODE_OPTIONS=--import …): once the command has returned and
// nothing is left to run ('beforeExit'), says so on stderr in a line of its own and keeps the
// process alive with a loopback server no one connects to. The CLI ends in that state for as
// long as V8 finishes an optimizing compile (130-190 ms, bin/sift.cjs) or a log is flushed: a
// test sends its signal there, after the command's work, on an event rather than a clock.
import net from 'node:net';

let lingering = false;
process.on('beforeExit', () => {
  if (lingering) return;
  lingering = true;
  net.createServer().listen(0, '127.0.0.1', () => process.stderr.write('[linger-hook] done\n'));
});
