import type { HistogramSnapshot } from '../../../shared/metrics';

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
