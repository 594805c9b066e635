import type { EventType } from '@app/common';
import { EVENT_TYPES } from '../../resources.js';
import type { WebhookDeliveryResponse, WebhookEndpointResponse } from '../../webhooks/index.js';
import { html, type SafeHtml } from './html.js';
import { csrfField, DASHBOARD, fieldAria, groupAria, notice, page, type Notice, type Viewer } from './layout.js';
import { minute } from './pages.js';

export interface EndpointForm {
  url?: string;
  description?: string;
  types?: string[];
}

/** A secret just made (creation or rotation): shown this once, with a Copy button. */
export interface ShownSecret {
  title: string;
  secret: string;
}

function secretCard(shown: ShownSecret | undefined): SafeHtml {
  if (!shown) return html``;
  return html`<div class="card" aria-labelledby="new-secret-title">
    <h2 id="new-secret-title">${shown.title}</h2>
    <p>Copy the signing secret now: it is shown only this once. Verify each delivery with it (Standard Webhooks).</p>
    <div class="secret">
      <code id="new-secret">${shown.secret}</code> <button type="button" data-copy="new-secret">Copy</button>
    </div>
    <p class="hint" id="new-secret-status" role="status" aria-live="polite"></p>
  </div>`;
}

/** The event types, one row per resource (`work_order.created`, `work_order.updated`, …). */
function byResource(): EventType[][] {
  const rows = new Map<string, EventType[]>();
  for (const type of EVENT_TYPES) {
    const resource = type.slice(0, type.indexOf('.'));
    rows.set(resource, [...(rows.get(resource) ?? []), type]);
  }
  return [...rows.values()];
}

function endpointFields(form: EndpointForm, idPrefix: string, shown: Notice): SafeHtml {
  const selected = new Set(form.types ?? []);
  return html`<div class="field">
      <label for="${idPrefix}url">URL</label>
      <input
        type="text"
        id="${idPrefix}url"
        name="url"
        required
        maxlength="2048"
        inputmode="url"
        value="${form.url ?? ''}"
        ${fieldAria(shown, 'url', `${idPrefix}url-hint`)}
      />
      <p class="hint" id="${idPrefix}url-hint">https://… — deliveries are POSTed here.</p>
    </div>
    <div class="field">
      <label for="${idPrefix}description">Description</label>
      <input
        type="text"
        id="${idPrefix}description"
        name="description"
        maxlength="500"
        value="${form.description ?? ''}"
        ${fieldAria(shown, 'description')}
      />
    </div>
    <fieldset class="field" ${groupAria(shown, 'types', `${idPrefix}types-hint`)}>
      <legend>Event types</legend>
      <p class="hint" id="${idPrefix}types-hint">None chosen: every event, those added later too.</p>
      <div class="checks">
        ${byResource().map(
          (types) =>
            html`<div class="check-row">
              ${types.map(
                (type) =>
                  html`<label
                    ><input type="checkbox" name="types" value="${type}" ${selected.has(type) ? html` checked` : ''} />
                    <code>${type}</code></label
                  >`,
              )}
            </div>`,
        )}
      </div>
    </fieldset>`;
}

function stateOf(endpoint: WebhookEndpointResponse): SafeHtml {
  return endpoint.enabled
    ? html`<span class="badge active">Enabled</span>`
    : html`<span class="badge revoked">Disabled</span>${
          endpoint.disabledReason ? html`<br /><span class="hint">${endpoint.disabledReason}</span>` : ''
        }`;
}

export interface WebhooksView {
  viewer: Viewer;
  endpoints: WebhookEndpointResponse[];
  notice?: Notice;
  shown?: ShownSecret;
  form?: EndpointForm;
}

export function webhooksPage(view: WebhooksView): string {
  const rows = view.endpoints.map(
    (endpoint) =>
      html`<tr>
        <th scope="row"><a href="${DASHBOARD}/webhooks/${endpoint.id}">${endpoint.url}</a></th>
        <td>${endpoint.description ?? '—'}</td>
        <td>${endpoint.types ? endpoint.types.join(', ') : 'All events'}</td>
        <td>${stateOf(endpoint)}</td>
        <td>${minute(endpoint.createdAt)}</td>
      </tr>`,
  );
  return page(
    { title: 'Webhooks', viewer: view.viewer, current: 'webhooks' },
    html`<h1>Webhooks</h1>
      <p class="lead">
        Changes to your records, pushed to your endpoints as they commit, signed per Standard Webhooks.
      </p>
      ${notice(view.notice)} ${secretCard(view.shown)}
      <section class="card" aria-labelledby="add-title">
        <h2 id="add-title">Add an endpoint</h2>
        <form method="post" action="${DASHBOARD}/webhooks" novalidate>
          ${csrfField(view.viewer.csrfToken)} ${endpointFields(view.form ?? {}, '', view.notice)}
          <button type="submit">Add endpoint</button>
        </form>
      </section>
      <section class="card" aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Your endpoints</h2>
        ${
          rows.length === 0
            ? html`<p class="empty">No endpoints yet. Add one above.</p>`
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">URL</th>
                      <th scope="col">Description</th>
                      <th scope="col">Events</th>
                      <th scope="col">Status</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows}
                  </tbody>
                </table>
              </div>`
        }
      </section>`,
  );
}

export interface EndpointView {
  viewer: Viewer;
  endpoint: WebhookEndpointResponse;
  deliveries: WebhookDeliveryResponse[];
  notice?: Notice;
  shown?: ShownSecret;
  form?: EndpointForm;
}

const STATE_BADGE = { pending: 'rolled', succeeded: 'active', failed: 'revoked' } as const;

export function endpointPage(view: EndpointView): string {
  const { endpoint } = view;
  const action = (path: string, label: string, kind = 'secondary') =>
    html`<form method="post" action="${DASHBOARD}/webhooks/${endpoint.id}/${path}">
      ${csrfField(view.viewer.csrfToken)} <button type="submit" class="${kind}">${label}</button>
    </form>`;
  const deliveries = view.deliveries.map(
    (delivery) =>
      html`<tr>
        <td><code>${delivery.eventId}</code></td>
        <td>${delivery.type}</td>
        <td><span class="badge ${STATE_BADGE[delivery.state]}">${delivery.state}</span></td>
        <td class="num">${delivery.attempts}</td>
        <td class="num">${delivery.lastStatus ?? '—'}</td>
        <td>${delivery.lastError ?? '—'}</td>
        <td>${delivery.nextAttemptAt ? minute(delivery.nextAttemptAt) : '—'}</td>
        <td>
          ${
            delivery.state === 'pending'
              ? ''
              : html`<form method="post" action="${DASHBOARD}/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry">
                  ${csrfField(view.viewer.csrfToken)}<button
                    type="submit"
                    class="secondary small"
                    aria-describedby="delivery-${delivery.id}"
                  >
                    Retry
                  </button>
                  <span class="sr-only" id="delivery-${delivery.id}">${delivery.type} ${delivery.eventId}</span>
                </form>`
          }
        </td>
      </tr>`,
  );
  return page(
    { title: 'Webhook endpoint', viewer: view.viewer, current: 'webhooks' },
    html`<p><a href="${DASHBOARD}/webhooks">← All endpoints</a></p>
      <h1>${endpoint.url}</h1>
      <p class="lead">${stateOf(endpoint)} · ${endpoint.types ? endpoint.types.join(', ') : 'All events'}</p>
      ${notice(view.notice)} ${secretCard(view.shown)}
      <section class="card" aria-labelledby="actions-title">
        <h2 id="actions-title">Actions</h2>
        <div class="actions">
          ${endpoint.enabled ? action('disable', 'Disable', 'danger') : action('enable', 'Enable')}
          ${action('rotate-secret', 'Rotate secret')} ${endpoint.enabled ? action('test', 'Send test event') : ''}
        </div>
      </section>
      <section class="card" aria-labelledby="edit-title">
        <h2 id="edit-title">Edit</h2>
        <form method="post" action="${DASHBOARD}/webhooks/${endpoint.id}" novalidate>
          ${csrfField(view.viewer.csrfToken)}
          ${endpointFields(
            view.form ?? { url: endpoint.url, description: endpoint.description ?? '', types: endpoint.types ?? [] },
            'edit-',
            view.notice,
          )}
          <button type="submit">Save</button>
        </form>
      </section>
      <section class="card" aria-labelledby="log-title">
        <h2 id="log-title">Delivery log</h2>
        ${
          deliveries.length === 0
            ? html`<p class="empty">Nothing delivered yet. Send a test event.</p>`
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Type</th>
                      <th scope="col">State</th>
                      <th scope="col" class="num">Attempts</th>
                      <th scope="col" class="num">Last status</th>
                      <th scope="col">Last error</th>
                      <th scope="col">Next attempt</th>
                      <th scope="col"><span class="sr-only">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${deliveries}
                  </tbody>
                </table>
              </div>`
        }
      </section>`,
  );
}
