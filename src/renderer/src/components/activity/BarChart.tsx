import type { Bar } from '../../lib/metrics';

const BAR_H = 18;
const GAP = 6;
const LABEL_W = 140;
const VALUE_W = 56;
const WIDTH = 420;

/**
 * Horizontal bars in SVG: no chart library, and nothing the CSP would refuse. `columns` head the
 * table a screen reader reads in the chart's place: what a bar stands for, and what it counts.
 */
export function BarChart({ bars, title, columns, testId }: { bars: Bar[]; title: string; columns: [string, string]; testId?: string }): React.JSX.Element {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plotW = WIDTH - LABEL_W - VALUE_W;
  const height = bars.length * (BAR_H + GAP);
  return (
    <div className="chart" data-testid={testId}>
      {/* The table's caption says it to a screen reader. */}
      <p className="chart-title" aria-hidden="true">
        {title}
      </p>
      {/* As an image named by its title, the chart said nothing of its bars to a screen reader:
          "URLs by outcome, image", no count. The same numbers are a table for it instead. */}
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.label}>
              <th scope="row">{b.label}</th>
              <td>{b.value.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <svg viewBox={`0 0 ${WIDTH} ${Math.max(height, BAR_H)}`} width="100%" aria-hidden="true">
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
    </div>
  );
}
