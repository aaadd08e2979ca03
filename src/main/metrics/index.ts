import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { HistogramSnapshot, MetricsSnapshot } from '../../shared/metrics';

/**
 * Outcome labels: task 06 rule 2's, then every other reason of SPEC §5.9 (issue 12), so a
 * dashboard sees challenge pages and sign-in walls apart from real successes. `cancelled`
 * counts a target cut short by a cancel, Ctrl-C or quit (stored "cancelled" or "interrupted").
 */
export const TARGET_OUTCOMES = [
  'ok',
  'busy',
  'blocked',
  'timeout',
  'unsupported',
  'too_long',
  'upstream_4xx',
  'upstream_5xx',
  'challenge',
  'login',
  'consent',
  'soft404',
  'needs_js',
  'bad_option',
  'network',
  'cancelled',
  'restart',
  'internal',
] as const;
export const JOB_OUTCOMES = ['done', 'failed', 'partial', 'cancelled'] as const;

/**
 * The sift_batch_* metrics in one prom-client registry (not the global one, so the app, the
 * CLI and each test own theirs). The runner's hooks feed it through the batch wiring.
 */
export class BatchMetrics {
  readonly registry = new Registry();
  private readonly jobs = new Counter({ name: 'sift_batch_jobs_total', help: 'Batch jobs by terminal outcome.', labelNames: ['outcome'], registers: [this.registry] });
  private readonly targets = new Counter({ name: 'sift_batch_targets_total', help: 'Batch targets by outcome.', labelNames: ['outcome'], registers: [this.registry] });
  private readonly depth = new Gauge({ name: 'sift_batch_queue_depth', help: 'Live (queued or running) batch jobs.', registers: [this.registry] });
  private readonly inflight = new Gauge({ name: 'sift_batch_targets_inflight', help: 'Batch targets being fetched right now.', registers: [this.registry] });
  // Buckets: a target is a page fetch (tens of ms on a LAN, seconds on the web, up to the
  // 210 s deadline); a job is up to thousands of those.
  private readonly jobSeconds = new Histogram({
    name: 'sift_batch_job_seconds',
    help: 'Wall time of a batch job, submit to terminal status.',
    buckets: [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
    registers: [this.registry],
  });
  private readonly targetSeconds = new Histogram({
    name: 'sift_batch_target_seconds',
    help: 'Time to fetch and extract one batch target.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 210],
    registers: [this.registry],
  });
  private readonly resultBytes = new Histogram({
    name: 'sift_batch_result_bytes',
    help: 'Size of a stored batch result.',
    buckets: [1024, 8192, 65536, 262144, 1048576, 4194304, 8388608],
    registers: [this.registry],
  });
  private readonly blocked = new Counter({ name: 'sift_batch_blocked_total', help: 'Batch targets refused by the address guard.', registers: [this.registry] });
  // An ok target may not be what was wanted (a thin page, a grep with no match, a PDF with no
  // text): counted only as ok, a list of 100 empty results read "ok 100" here while sift batch
  // said "ok 100 (100 with warnings)".
  private readonly warned = new Counter({ name: 'sift_batch_targets_warned_total', help: 'Batch targets done with at least one warning.', registers: [this.registry] });
  private readonly warnings = new Counter({ name: 'sift_batch_target_warnings_total', help: 'Warnings of done batch targets, by warning.', labelNames: ['warning'], registers: [this.registry] });

  constructor() {
    // Zero series for every label, so the Activity panel shows them before the first job.
    for (const o of JOB_OUTCOMES) this.jobs.inc({ outcome: o }, 0);
    for (const o of TARGET_OUTCOMES) this.targets.inc({ outcome: o }, 0);
  }

  observeJob(outcome: string): void {
    this.jobs.inc({ outcome });
  }
  observeTarget(outcome: string): void {
    this.targets.inc({ outcome });
  }
  setQueueDepth(n: number): void {
    this.depth.set(n);
  }
  setInflight(n: number): void {
    this.inflight.set(n);
  }
  observeJobSeconds(s: number): void {
    this.jobSeconds.observe(s);
  }
  observeTargetSeconds(s: number): void {
    this.targetSeconds.observe(s);
  }
  observeResultBytes(n: number): void {
    this.resultBytes.observe(n);
  }
  countBlocked(): void {
    this.blocked.inc();
  }
  /** A done target's warnings (meta.warnings); nothing for none. */
  observeWarnings(warnings: readonly string[]): void {
    if (warnings.length === 0) return;
    this.warned.inc();
    for (const w of new Set(warnings)) this.warnings.inc({ warning: w });
  }

  /** Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  async snapshot(): Promise<MetricsSnapshot> {
    const all = await this.registry.getMetricsAsJSON();
    const byName = new Map(all.map((m) => [m.name, m]));
    const values = (name: string) => (byName.get(name)?.values ?? []) as { value: number; labels: Record<string, string | number>; metricName?: string }[];
    const counts = (name: string, label = 'outcome'): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const v of values(name)) out[String(v.labels[label])] = v.value;
      return out;
    };
    const single = (name: string): number => values(name)[0]?.value ?? 0;
    const hist = (name: string): HistogramSnapshot => {
      const snap: HistogramSnapshot = { buckets: [], sum: 0, count: 0 };
      for (const v of values(name)) {
        if (v.metricName === `${name}_bucket`) {
          const le = v.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(v.labels.le);
          if (Number.isFinite(le)) snap.buckets.push({ le, count: v.value });
        } else if (v.metricName === `${name}_sum`) snap.sum = v.value;
        else if (v.metricName === `${name}_count`) snap.count = v.value;
      }
      return snap;
    };
    return {
      jobs: counts('sift_batch_jobs_total'),
      targets: counts('sift_batch_targets_total'),
      queueDepth: single('sift_batch_queue_depth'),
      inflight: single('sift_batch_targets_inflight'),
      blocked: single('sift_batch_blocked_total'),
      warned: single('sift_batch_targets_warned_total'),
      warnings: counts('sift_batch_target_warnings_total', 'warning'),
      jobSeconds: hist('sift_batch_job_seconds'),
      targetSeconds: hist('sift_batch_target_seconds'),
      resultBytes: hist('sift_batch_result_bytes'),
    };
  }
}
