// A module-loader hook for tests that check what a command loads: it appends the URL of
// every module node loads through its ESM loader to the file named by SIFT_LOADED_LOG.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  if (process.env.SIFT_LOADED_LOG) appendFileSync(process.env.SIFT_LOADED_LOG, `${url}\n`);
  return next(url, context);
}
