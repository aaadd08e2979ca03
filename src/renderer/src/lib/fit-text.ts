import { useEffect, useState } from 'react';

/** A column's width and the font of its cells, for fitText. */
export interface ColumnFit {
  width: number;
  font: string;
}

/**
 * A column's width, again whenever it is resized, and the font a cell of it has (read from
 * `probe`, a hidden cell of the rows' own style, as a header's font may differ).
 */
export function useColumnFit(column: React.RefObject<HTMLElement | null>, probe: React.RefObject<HTMLElement | null>): ColumnFit | null {
  const [fit, setFit] = useState<ColumnFit | null>(null);
  useEffect(() => {
    const col = column.current;
    const cell = probe.current;
    if (!col || !cell) return;
    const measure = (): void => {
      // A pixel to spare: clientWidth is rounded, measured text is not.
      const width = col.clientWidth - 1;
      const font = getComputedStyle(cell).font;
      if (width > 0) setFit((old) => (old && old.width === width && old.font === font ? old : { width, font }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(col);
    return () => observer.disconnect();
  }, [column, probe]);
  return fit;
}

let measureCtx: CanvasRenderingContext2D | null | undefined;

/** The width of `text` in `font`, measured; null where no canvas can measure it. */
export function textWidth(text: string, font: string): number | null {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return null;
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}

/**
 * `full` when it fits `width` in `font`, else the longest `cut(n)` (n characters) that does,
 * measured, so CSS never has to cut the end off: a URL cut by an ellipsis at its end lost the
 * path's end, which is what tells the rows of one site apart. Null where nothing can measure.
 */
export function fitText(full: string, cut: (n: number) => string, width: number, font: string): string | null {
  const whole = textWidth(full, font);
  if (whole === null) return null;
  if (whole <= width) return full;
  let lo = 8;
  let hi = full.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((textWidth(cut(mid), font) ?? Infinity) <= width) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}
