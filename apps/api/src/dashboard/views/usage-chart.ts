import { html, type SafeHtml } from './html.js';

/** One key's requests on one day (UTC), by status class. */
export interface DayCounts {
  /** `2026-11-25` */
  day: string;
  ok: number;
  clientErrors: number;
  limited: number;
  serverErrors: number;
}

/** The status classes in the order the bars stack them (bottom first), with their labels and CSS classes. */
export const STATUS_SERIES = [
  { field: 'ok', label: '2xx–3xx', className: 'ok' },
  { field: 'clientErrors', label: '4xx', className: 'client' },
  { field: 'limited', label: '429', className: 'limited' },
  { field: 'serverErrors', label: '5xx', className: 'server' },
] as const;

export const totalOf = (day: DayCounts): number => day.ok + day.clientErrors + day.limited + day.serverErrors;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `25 Nov` */
export function shortDay(day: string): string {
  return `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`;
}

const count = (value: number, noun: string): string =>
  `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`;

/** The top of the scale: a round number at least `max` whose half is a whole number too (the middle line). */
export function scaleTop(max: number): number {
  for (let power = 1; ; power *= 10) {
    for (const step of [1, 2, 4, 5, 6, 8]) if (step * power >= max && step * power >= 2) return step * power;
  }
}

const compact = (value: number): string => (value >= 1000 ? `${value / 1000}k` : String(value));

// The drawing's geometry, in SVG user units (pixels at 100 %).
const AXIS = 34;
const SLOT = 40;
const BAR = 24;
const TOP = 8;
const PLOT = 96;
const LABELS = 20;

/**
 * A stacked bar chart of one key's requests per day, drawn here as inline SVG (no script, no outside host, styled
 * by the stylesheet's classes, which the Content-Security-Policy allows where a style attribute would not be).
 * It is one image to assistive technology: its `<title>` names it and its `<desc>` says what it shows, and the
 * table beside it has the figures. Each day's `<title>` is a tooltip for the mouse.
 */
export function usageChart(id: string, subject: string, days: DayCounts[]): SafeHtml {
  const oldestFirst = [...days].sort((a, b) => a.day.localeCompare(b.day));
  const totals = oldestFirst.map(totalOf);
  const top = scaleTop(Math.max(...totals, 0));
  const width = AXIS + SLOT * oldestFirst.length;
  const height = TOP + PLOT + LABELS;
  // Two decimals are plenty for a screen and keep the markup short.
  const y = (value: number) => Math.round((TOP + PLOT - (value / top) * PLOT) * 100) / 100;
  const gridLines = [0, top / 2, top].map(
    (value) =>
      html`<line class="grid" x1="${AXIS}" x2="${width}" y1="${y(value)}" y2="${y(value)}" />
        <text class="axis" x="${AXIS - 6}" y="${y(value) + 3.5}" text-anchor="end">${compact(value)}</text>`,
  );
  const bars = oldestFirst.map((day, index) => {
    const x = AXIS + index * SLOT + (SLOT - BAR) / 2;
    let base = 0;
    const segments = STATUS_SERIES.map((series) => {
      const value = day[series.field];
      if (value === 0) return html``;
      const from = y(base);
      base += value;
      // At least a pixel, so one request among thousands still shows.
      const segment = Math.round(Math.max(from - y(base), 1) * 100) / 100;
      return html`<rect
        class="bar ${series.className}"
        x="${x}"
        y="${from - segment}"
        width="${BAR}"
        height="${segment}"
      />`;
    });
    const parts = STATUS_SERIES.filter((series) => day[series.field] > 0).map(
      (series) => `${day[series.field].toLocaleString('en-US')} ${series.label}`,
    );
    const tooltip = `${shortDay(day.day)}: ${count(totals[index], 'request')}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
    return html`<g>
      <title>${tooltip}</title>
      <rect class="slot" x="${AXIS + index * SLOT}" y="${TOP}" width="${SLOT}" height="${PLOT}" />
      ${segments}
      <text
        class="axis${index === oldestFirst.length - 1 ? ' today' : ''}"
        x="${x + BAR / 2}"
        y="${height - 5}"
        text-anchor="middle"
      >
        ${shortDay(day.day)}
      </text>
    </g>`;
  });
  return html`<svg
    class="chart"
    role="img"
    viewBox="0 0 ${width} ${height}"
    width="${width}"
    height="${height}"
    aria-labelledby="${id}-title"
    aria-describedby="${id}-desc"
  >
    <title id="${id}-title">Requests per day, ${subject}</title>
    <desc id="${id}-desc">${describe(oldestFirst)}</desc>
    ${gridLines} ${bars}
  </svg>`;
}

/** The chart in words: the period, the total, the busiest day, and the split by status class. */
export function describe(oldestFirst: DayCounts[]): string {
  const first = oldestFirst[0];
  const last = oldestFirst[oldestFirst.length - 1];
  if (!first || !last) return 'No days.';
  const totals = oldestFirst.map(totalOf);
  const total = totals.reduce((sum, value) => sum + value, 0);
  const busy = totals.filter((value) => value > 0).length;
  const period = `${shortDay(first.day)} to ${shortDay(last.day)} ${last.day.slice(0, 4)} (UTC)`;
  if (total === 0) return `${period}: no requests.`;
  const busiest = oldestFirst[totals.indexOf(Math.max(...totals))];
  const split = STATUS_SERIES.map(
    (series) =>
      `${series.label} ${oldestFirst.reduce((sum, day) => sum + day[series.field], 0).toLocaleString('en-US')}`,
  ).join(', ');
  return (
    `${period}: ${count(total, 'request')} on ${busy} of ${oldestFirst.length} days, ` +
    `most on ${shortDay(busiest.day)} (${totalOf(busiest).toLocaleString('en-US')}). ${split}.`
  );
}
