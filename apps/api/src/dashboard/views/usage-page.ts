import { RECENT_REQUESTS, USAGE_DAYS } from '../../api-keys/index.js';
import { html, type SafeHtml } from './html.js';
import { page, type Viewer } from './layout.js';
import { shortDay, STATUS_SERIES, totalOf, usageChart, type DayCounts } from './usage-chart.js';

export interface DailyUsage {
  apiKeyId: string;
  name: string | null;
  prefix: string | null;
  /** Every day of the period, newest first, idle ones too. */
  days: DayCounts[];
}

export interface RecentRequestView {
  at: string;
  keyName: string | null;
  keyPrefix: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

function statusClass(status: number): string {
  if (status === 429) return 'status-429';
  if (status >= 500) return 'status-5xx';
  if (status >= 400) return 'status-4xx';
  return 'status-2xx';
}

/** A key as people tell keys apart: its name and its prefix (a rolled key keeps the name, not the prefix). */
function keyLabel(name: string | null, prefix: string | null): SafeHtml {
  return html`${name ?? 'Unnamed key'}${prefix ? html` <code class="prefix">${prefix}…</code>` : ''}`;
}

const keySubject = (key: DailyUsage): string => `${key.name ?? 'Unnamed key'}${key.prefix ? ` (${key.prefix}…)` : ''}`;

const legend = html`<ul class="legend" aria-label="Colours of the bars">
  ${STATUS_SERIES.map(
    (series) => html`<li><span class="swatch ${series.className}" aria-hidden="true"></span>${series.label}</li>`,
  )}
</ul>`;

/**
 * One key's week: a chart of every day, and a table of the days with requests only (idle days would be rows of
 * zeros — the chart shows them, and the caption counts them).
 */
function keyUsage(key: DailyUsage): SafeHtml {
  const id = `usage-${key.apiKeyId}`;
  const busy = key.days.filter((day) => totalOf(day) > 0);
  const total = busy.reduce((sum, day) => sum + totalOf(day), 0);
  const idle = key.days.length - busy.length;
  return html`<article class="key-usage" aria-labelledby="${id}-name">
    <h3 id="${id}-name">${keyLabel(key.name, key.prefix)}</h3>
    <p class="hint">
      ${total.toLocaleString('en-US')} request${total === 1 ? '' : 's'} on ${busy.length} of ${key.days.length} days
    </p>
    <div class="key-usage-body">
      ${usageChart(id, keySubject(key), key.days)}
      <div class="table-wrap">
        <table>
          <caption class="hint">
            ${idle === 0 ? 'Every day had requests.' : `Days with requests; ${idle} day${idle === 1 ? '' : 's'} without.`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              ${STATUS_SERIES.map((series) => html`<th scope="col" class="num">${series.label}</th>`)}
              <th scope="col" class="num">Total</th>
            </tr>
          </thead>
          <tbody>
            ${busy.map(
              (day) =>
                html`<tr>
                  <th scope="row"><time datetime="${day.day}">${shortDay(day.day)}</time></th>
                  ${STATUS_SERIES.map((series) => html`<td class="num">${day[series.field].toLocaleString('en-US')}</td>`)}
                  <td class="num">${totalOf(day).toLocaleString('en-US')}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </div>
  </article>`;
}

function dailySection(usage: DailyUsage[]): SafeHtml {
  if (usage.length === 0) return html`<p class="empty">No keys yet.</p>`;
  const used = usage.filter((key) => key.days.some((day) => totalOf(day) > 0));
  const idle = usage.filter((key) => !used.includes(key));
  return html`${used.length > 0 ? legend : ''} ${used.map(keyUsage)}
  ${
    idle.length === 0
      ? ''
      : html`<div class="idle-keys">
          <h3>No requests in the last ${USAGE_DAYS} days</h3>
          <ul>
            ${idle.map((key) => html`<li>${keyLabel(key.name, key.prefix)}</li>`)}
          </ul>
        </div>`
  }`;
}

function recentSection(recent: RecentRequestView[]): SafeHtml {
  if (recent.length === 0) return html`<p class="empty">No requests in the last ${USAGE_DAYS} days.</p>`;
  // A region of its own that scrolls, so a hundred rows do not make the page a hundred rows long; focusable, so
  // the keyboard scrolls it too.
  return html`<div class="table-wrap scroll" tabindex="0" role="region" aria-label="Last 100 requests (scrolls)">
    <table>
      <thead>
        <tr>
          <th scope="col">Time (UTC)</th>
          <th scope="col">Key</th>
          <th scope="col">Method</th>
          <th scope="col">Path</th>
          <th scope="col" class="num">Status</th>
          <th scope="col" class="num">Milliseconds</th>
        </tr>
      </thead>
      <tbody>
        ${recent.map(
          (request) =>
            html`<tr>
              <td><time datetime="${request.at}">${request.at.slice(0, 19).replace('T', ' ')}</time></td>
              <td>${keyLabel(request.keyName, request.keyPrefix)}</td>
              <td><code>${request.method}</code></td>
              <td><code>${request.path}</code></td>
              <td class="num ${statusClass(request.status)}">${request.status}</td>
              <td class="num">${request.durationMs}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function usagePage(viewer: Viewer, usage: DailyUsage[], recent: RecentRequestView[]): string {
  return page(
    { title: 'Usage', viewer, current: 'usage' },
    html`<h1>Usage</h1>
      <p class="lead">
        Requests per key and day for the last ${USAGE_DAYS} days (UTC), and your team's last ${RECENT_REQUESTS}
        requests. Figures arrive within a few seconds.
      </p>
      <section class="card" aria-labelledby="daily-title">
        <h2 id="daily-title">Requests per day</h2>
        ${dailySection(usage)}
      </section>
      <section class="card" aria-labelledby="recent-title">
        <h2 id="recent-title">Last ${RECENT_REQUESTS} requests</h2>
        ${recentSection(recent)}
      </section>`,
  );
}
