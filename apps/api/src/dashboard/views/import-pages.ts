import type { Pagination } from '@app/common';
import type { ImportErrorResponse, ImportResponse } from '../../imports/index.js';
import { html, type SafeHtml } from './html.js';
import { DASHBOARD, page, type Viewer } from './layout.js';
import { minute } from './pages.js';

/** The status in words, and a badge colour that only repeats it. */
const STATUS: Record<ImportResponse['status'], { label: string; kind: string }> = {
  queued: { label: 'Queued', kind: '' },
  running: { label: 'Running', kind: 'rolled' },
  succeeded: { label: 'Succeeded', kind: 'active' },
  failed: { label: 'Failed', kind: 'revoked' },
  cancelled: { label: 'Cancelled', kind: '' },
};

function statusOf(item: ImportResponse): SafeHtml {
  const { label, kind } = STATUS[item.status];
  return html`<span class="badge ${kind}">${label}</span>`;
}

/** `<progress>` named by its own text ("120 of 300 rows"), which is also shown beside it. */
function progressOf(item: ImportResponse, idPrefix: string): SafeHtml {
  const id = `${idPrefix}${item.id}`;
  const text = `${item.processedRows} of ${item.totalRows} rows`;
  return html`<div class="progress">
    <progress id="${id}" max="${Math.max(item.totalRows, 1)}" value="${item.processedRows}" aria-label="${text}">
      ${text}
    </progress>
    <span class="num" aria-hidden="true">${item.processedRows}/${item.totalRows}</span>
  </div>`;
}

/** Previous/next links of a paged table; nothing when everything fits on one page. */
function pager(path: string, pagination: Pagination, noun: string): SafeHtml {
  const { page: current, pageCount, total } = pagination;
  if (pageCount <= 1 && current === 1) return html``;
  const link = (target: number, label: string, rel: string) =>
    html`<a class="button secondary small" rel="${rel}" href="${path}?page=${target}">${label}</a>`;
  return html`<nav class="pager" aria-label="Pages of ${noun}">
    ${current > 1 ? link(Math.min(current - 1, Math.max(pageCount, 1)), '← Previous', 'prev') : ''}
    <span>Page ${current} of ${Math.max(pageCount, 1)} · ${total} ${noun}</span>
    ${current < pageCount ? link(current + 1, 'Next →', 'next') : ''}
  </nav>`;
}

/** A time to the minute that breaks, if it must, only between its day and its time. */
function when(value: string | null): SafeHtml {
  const [day, ...time] = minute(value).split(' ');
  return time.length === 0
    ? html`${day}`
    : html`<span class="nowrap">${day}</span> <span class="nowrap">${time.join(' ')}</span>`;
}

const DOCS_LINK = html`<a href="/docs#/Imports/ImportsController_create">POST /v1/imports</a>`;

export interface ImportsView {
  viewer: Viewer;
  imports: ImportResponse[];
  pagination: Pagination;
}

export function importsPage(view: ImportsView): string {
  const rows = view.imports.map(
    (item) =>
      html`<tr>
        <th scope="row">
          <a href="${DASHBOARD}/imports/${item.id}"
            >${item.resource}<span class="sr-only">
              import ${item.id.slice(0, 8)}, posted ${minute(item.createdAt)}</span
            ></a
          >
        </th>
        <td>${statusOf(item)}</td>
        <td>${item.dryRun ? 'Yes' : 'No'}</td>
        <td>${progressOf(item, 'progress-')}</td>
        <td class="num">${item.createdCount}</td>
        <td class="num">${item.updatedCount}</td>
        <td class="num">${item.failedCount}</td>
        <td>${when(item.createdAt)}</td>
        <td>${when(item.finishedAt)}</td>
      </tr>`,
  );
  const empty =
    view.pagination.total === 0
      ? html`<div class="empty">
          <p>No imports yet.</p>
          <p>
            Start one through the API with one of your keys: <code>POST /v1/imports?resource=units</code> with a CSV
            file (or NDJSON) as the body — see ${DOCS_LINK} in the API docs. It shows up here at once, with its
            progress.
          </p>
        </div>`
      : html`<p class="empty">No imports on this page. <a href="${DASHBOARD}/imports">Newest imports</a></p>`;
  return page(
    { title: 'Imports', viewer: view.viewer, current: 'imports' },
    html`<h1>Imports</h1>
      <p class="lead">
        Your team’s imports (${DOCS_LINK}), newest first: their progress, what their rows did, and why rows failed.
      </p>
      <section class="card" aria-labelledby="imports-title">
        <h2 id="imports-title">Your imports</h2>
        ${
          rows.length === 0
            ? empty
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Resource</th>
                      <th scope="col">Status</th>
                      <th scope="col">Dry run</th>
                      <th scope="col">Progress</th>
                      <th scope="col" class="num">Created</th>
                      <th scope="col" class="num">Updated</th>
                      <th scope="col" class="num">Failed</th>
                      <th scope="col">Posted</th>
                      <th scope="col">Finished</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows}
                  </tbody>
                </table>
              </div>`
        }
        ${pager(`${DASHBOARD}/imports`, view.pagination, 'imports')}
      </section>`,
  );
}

export interface ImportView {
  viewer: Viewer;
  item: ImportResponse;
  errors: ImportErrorResponse[];
  pagination: Pagination;
}

export function importPage(view: ImportView): string {
  const { item } = view;
  const fact = (term: string, value: SafeHtml | string | number) =>
    html`<dt>${term}</dt>
      <dd>${value}</dd>`;
  const errors = view.errors.map(
    (error) =>
      html`<tr>
        <td class="num">${error.row}</td>
        <td>${error.externalRef === null ? '—' : html`<code>${error.externalRef}</code>`}</td>
        <td>${error.error}</td>
      </tr>`,
  );
  return page(
    { title: `Import of ${item.resource}`, viewer: view.viewer, current: 'imports' },
    html`<p><a href="${DASHBOARD}/imports">← All imports</a></p>
      <h1>Import of ${item.resource}${item.dryRun ? ' (dry run)' : ''}</h1>
      <p class="lead">${statusOf(item)} · <code>${item.id}</code></p>
      <section class="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <dl class="facts">
          ${fact('Status', STATUS[item.status].label)}
          ${fact('Dry run', item.dryRun ? 'Yes: nothing was written' : 'No')}
          ${fact('Progress', progressOf(item, 'detail-progress-'))}
          ${fact(item.dryRun ? 'Would create' : 'Created', item.createdCount)}
          ${fact(item.dryRun ? 'Would update' : 'Updated', item.updatedCount)} ${fact('Failed rows', item.failedCount)}
          ${fact('Posted', minute(item.createdAt))} ${fact('Started', minute(item.startedAt))}
          ${fact('Finished', minute(item.finishedAt))}
        </dl>
      </section>
      <section class="card" aria-labelledby="errors-title">
        <h2 id="errors-title">Failed rows</h2>
        ${
          errors.length === 0
            ? html`<p class="empty">
                ${view.pagination.total === 0 ? 'No row has failed.' : 'No failed rows on this page.'}
              </p>`
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col" class="num">Row</th>
                      <th scope="col">External ref</th>
                      <th scope="col">Error</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${errors}
                  </tbody>
                </table>
              </div>`
        }
        ${pager(`${DASHBOARD}/imports/${item.id}`, view.pagination, 'failed rows')}
      </section>`,
  );
}
