/**
 * The serial batch runner (SPEC §3): jobs of targets drained one at a time per job, every
 * outcome in the store, with idempotent submit, caps, cancel, retry and metrics hooks.
 */
export { Runner, type RunnerEvents } from './runner';
export {
  TargetError,
  reasonOfError,
  RunnerError,
  RetryLaterError,
  ErrNoTargets,
  ErrTooManyTargets,
  ErrCallerBusy,
  ErrBusy,
  ErrRetryLater,
  ErrRunnerClosed,
  isRetryLater,
  retryAfterOf,
  cancelledTargetError,
  interruptedTargetError,
  isInterruption,
} from './errors';
export { canonicalTargets, idemKey } from './canonical';
export { restRunFinder } from './rest-run';
export type { Caller, FetchFunc, Hooks, Logger, RunnerConfig } from './types';
