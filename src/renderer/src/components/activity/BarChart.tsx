import type { Bar } from '../../lib/metrics';

const BAR_H = 18;
const GAP = 6;
const LABEL_W = 140;
const VALUE_W = 56;
const WIDTH = 420;

/** Horizontal bars in SVG: no chart library, and nothing the CSP would refuse. */
export function BarChart({ bars, title, testId }: { bars: Bar[]; title: string; testId?: string }): React.JSX.Element {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plotW = WIDTH - LABEL_W - VALUE_W;
  const height = bars.length * (BAR_H + GAP);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${Math.max(height, BAR_H)}`} width="100%" role="img" aria-label={title}>
        {bars.map((b, i) => {
          const y = i * (BAR_H + GAP);
          const w = b.value > 0 ? Math.max(2, (plotW * b.value) / max) : 0;
          return (
            <g key={b.label}>
              <text x={LABEL_W - 8} y={y + BAR_H * 0.72} textAnchor="end" className="chart-label">
                {b.label}
              </text>
              <rect x={LABEL_W} y={y} width={w} height={BAR_H} rx={3} className={`bar tone-${b.tone ?? 'accent'}`} />
              <text x={LABEL_W + w + 6} y={y + BAR_H * 0.72} className="chart-value">
                {b.value.toLocaleString()}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
