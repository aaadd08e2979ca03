import type { HistogramSnapshot } from '../../../shared/metrics';
import { isReason, REASON_LABELS, warningLabel } from '../../../shared/reasons';

/** One bar of a chart in the Activity panel. */
export interface Bar {
  label: string;
  value: number;
  tone?: 'ok' | 'bad' | 'warn' | 'accent' | 'muted';
}

function seconds(le: number): string {
  if (!Number.isFinite(le)) return 'longer';
  return le < 1 ? `≤ ${Math.round(le * 1000)} ms` : `≤ ${le} s`;
}

/** Prometheus buckets are cumulative; the chart wants the count in each bucket. */
export function histogramBars(h: HistogramSnapshot): Bar[] {
  const bars: Bar[] = [];
  let prev = 0;
  for (const b of h.buckets) {
    bars.push({ label: seconds(b.le), value: Math.max(0, b.count - prev) });
    prev = b.count;
  }
  if (h.count > prev) bars.push({ label: 'longer', value: h.count - prev });
  return bars;
}

const TONES: Record<string, Bar['tone']> = {
  ok: 'ok',
  done: 'ok',
  partial: 'warn',
  busy: 'warn',
  timeout: 'warn',
  needs_js: 'warn',
  soft404: 'warn',
  cancelled: 'muted',
  restart: 'muted',
  canceled: 'muted',
};
// Every other outcome (upstream_4xx, blocked, too_long, …) is a failure of some kind.
const toneOf = (label: string): Bar['tone'] => TONES[label] ?? 'bad';

/** The metric's outcome labels (SPEC's sift_batch_targets_total) in people's words. */
export function outcomeLabel(label: string): string {
  if (label === 'upstream_4xx') return 'HTTP 4xx from the site';
  if (label === 'upstream_5xx') return 'HTTP 5xx from the site';
  // A job's outcome, as the job list's badge says it.
  if (label === 'partial') return 'partly failed';
  return isReason(label) ? REASON_LABELS[label] : label;
}

export function outcomeBars(counts: Record<string, number>): Bar[] {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([label, value]) => ({ label: outcomeLabel(label), value, tone: toneOf(label) }));
}

/**
 * Why targets failed: the outcome counters other than ok, in people's words (the 4xx and 5xx
 * of the seed's labels are one "HTTP error"), without the reasons nothing had.
 */
export function reasonBars(counts: Record<string, number>): Bar[] {
  const sum = new Map<string, number>();
  for (const [label, n] of Object.entries(counts)) {
    if (label === 'ok' || n <= 0) continue;
    const key = label === 'upstream_4xx' || label === 'upstream_5xx' ? 'upstream' : label;
    sum.set(key, (sum.get(key) ?? 0) + n);
  }
  return [...sum.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, value]) => ({ label: outcomeLabel(key), value, tone: toneOf(key) }));
}

/** The warnings of ok targets (a thin page, no match, …) in people's words, most first. */
export function warningBars(counts: Record<string, number>): Bar[] {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([w, value]) => ({ label: warningLabel(w), value, tone: 'warn' as const }));
}
