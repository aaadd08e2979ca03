import * as z from 'zod';

const HistogramSchema = z.object({
  /** Cumulative counts per upper bound, as Prometheus keeps them. */
  buckets: z.array(z.object({ le: z.number(), count: z.number() })),
  sum: z.number(),
  count: z.number(),
});
export type HistogramSnapshot = z.infer<typeof HistogramSchema>;

/** The sift_batch_* metrics as the Activity panel reads them. */
export const MetricsSnapshotSchema = z.object({
  jobs: z.record(z.string(), z.number()),
  targets: z.record(z.string(), z.number()),
  queueDepth: z.number(),
  inflight: z.number(),
  blocked: z.number(),
  /** Targets done (ok) with at least one warning, and the warnings by name (meta.warnings). */
  warned: z.number(),
  warnings: z.record(z.string(), z.number()),
  jobSeconds: HistogramSchema,
  targetSeconds: HistogramSchema,
  resultBytes: HistogramSchema,
});
export type MetricsSnapshot = z.infer<typeof MetricsSnapshotSchema>;
