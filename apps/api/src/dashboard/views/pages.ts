import { type KeyListing } from '../../api-keys/index.js';
import { html, type SafeHtml } from './html.js';
import { csrfField, DASHBOARD, fieldAria, groupAria, notice, page, type Notice, type Viewer } from './layout.js';

/** Grace periods a rolled key may keep working for, as the roll form offers them. */
export const GRACE_PERIODS = [
  { value: 'now', label: 'Now', ms: 0 },
  { value: '1h', label: '1 hour', ms: 3_600_000 },
  { value: '24h', label: '24 hours', ms: 86_400_000 },
  { value: '7d', label: '7 days', ms: 7 * 86_400_000 },
] as const;

/** `2026-11-24 05:54 UTC`: times are shown to the minute, in UTC like the API. */
export function minute(value: string | number | Date | null): string {
  if (value === null) return '—';
  return `${new Date(value).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export type KeyStatus = { label: string; kind: 'active' | 'revoked' | 'expired' | 'rolled' };

export function statusOf(key: KeyListing, now: number): KeyStatus {
  if (key.revokedAt) return { label: 'Revoked', kind: 'revoked' };
  const expiresAt = key.expiresAt === null ? null : Date.parse(key.expiresAt);
  if (expiresAt !== null && expiresAt <= now) return { label: 'Expired', kind: 'expired' };
  if (key.replacedBy) return { label: `Rolled, works until ${minute(key.expiresAt)}`, kind: 'rolled' };
  return { label: 'Active', kind: 'active' };
}

export const ACCESS_LABELS = { read_write: 'Read and write', read_only: 'Read only' } as const;

export interface KeysView {
  viewer: Viewer;
  keys: KeyListing[];
  now: number;
  notice?: Notice;
  /** A key just made: its plaintext is shown this once. */
  created?: { name: string | null; apiKey: string; replaced?: string | null };
  form?: { name?: string; access?: string; expires?: string };
}

function keyRow(key: KeyListing, now: number): SafeHtml {
  const status = statusOf(key, now);
  const usable = status.kind === 'active' || status.kind === 'rolled';
  const name = key.name ?? 'Unnamed key';
  return html`<tr>
    <th scope="row">${name}</th>
    <td><code>${key.prefix ? `${key.prefix}…` : 'ppk_…'}</code></td>
    <td>${ACCESS_LABELS[key.access]}</td>
    <td>${minute(key.createdAt)}</td>
    <td>${key.lastUsedAt ? minute(key.lastUsedAt) : 'Never'}</td>
    <td>${key.expiresAt ? minute(key.expiresAt) : 'Never'}</td>
    <td><span class="badge ${status.kind}">${status.label}</span></td>
    <td>
      ${
        usable
          ? html`<div class="row-actions">
              ${
                key.replacedBy
                  ? ''
                  : html`<a
                      class="button secondary small"
                      href="${DASHBOARD}/keys/${key.apiKeyId}/roll"
                      aria-describedby="key-${key.apiKeyId}"
                      >Roll</a
                    >`
              }
              <a
                class="button danger small"
                href="${DASHBOARD}/keys/${key.apiKeyId}/revoke"
                aria-describedby="key-${key.apiKeyId}"
                >Revoke</a
              >
              <span class="sr-only" id="key-${key.apiKeyId}">${name}</span>
            </div>`
          : html`<span class="muted">—</span>`
      }
    </td>
  </tr>`;
}

export function keysPage(view: KeysView): string {
  const access = view.form?.access ?? 'read_write';
  const created = view.created
    ? html`<div class="card" aria-labelledby="new-key-title">
        <h2 id="new-key-title">Your new key${view.created.name ? html` “${view.created.name}”` : ''}</h2>
        <p>
          Copy it now: it is shown only this once, and only its hash is
          kept.${view.created.replaced ? html` ${view.created.replaced}` : ''}
        </p>
        <div class="secret">
          <code id="new-key">${view.created.apiKey}</code> <button type="button" data-copy="new-key">Copy</button>
        </div>
        <p class="hint" id="new-key-status" role="status" aria-live="polite"></p>
        <p class="hint">
          Send it as <code>Authorization: Bearer ${view.created.apiKey.slice(0, 12)}…</code> to <code>/v1</code>; see
          the <a href="/docs">API docs</a>.
        </p>
      </div>`
    : '';
  const rows = view.keys.map((key) => keyRow(key, view.now));
  const test = view.viewer.testMode;
  return page(
    { title: 'API keys', viewer: view.viewer, current: 'keys' },
    html`<h1>${test ? 'Test keys' : 'API keys'}</h1>
      <p class="lead">
        ${
          test
            ? html`Test keys (<code>ppk_test_…</code>) reach only your sandbox, never your live portfolio. Each is shown
              once, when it is made.`
            : "Keys let your software reach this team's portfolio. Each is shown once, when it is made."
        }
      </p>
      ${notice(view.notice)} ${created}
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">${test ? 'Create a test key' : 'Create a key'}</h2>
        <form method="post" action="${DASHBOARD}/keys" novalidate>
          ${csrfField(view.viewer.csrfToken)}
          <div class="row">
            <div class="field">
              <label for="name">Name</label>
              <input
                type="text"
                id="name"
                name="name"
                required
                maxlength="100"
                value="${view.form?.name ?? ''}"
                ${fieldAria(view.notice, 'name', 'name-hint')}
              />
              <p class="hint" id="name-hint">What uses it, e.g. “Accounts sync”.</p>
            </div>
            <fieldset ${groupAria(view.notice, 'access')}>
              <legend>Access</legend>
              <div class="choices">
                <label
                  ><input
                    type="radio"
                    name="access"
                    value="read_write"
                    ${access === 'read_write' ? html` checked` : ''}
                  />
                  Read and write</label
                >
                <label
                  ><input
                    type="radio"
                    name="access"
                    value="read_only"
                    ${access === 'read_only' ? html` checked` : ''}
                  />
                  Read only</label
                >
              </div>
            </fieldset>
            <div class="field">
              <label for="expires">Expires</label>
              <input
                type="date"
                id="expires"
                name="expires"
                value="${view.form?.expires ?? ''}"
                ${fieldAria(view.notice, 'expires', 'expires-hint')}
              />
              <p class="hint" id="expires-hint">Optional. The key stops working at 00:00 UTC that day.</p>
            </div>
          </div>
          <button type="submit">${test ? 'Create test key' : 'Create key'}</button>
        </form>
      </section>
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">${test ? "Your sandbox's test keys" : "Your team's keys"}</h2>
        ${
          rows.length === 0
            ? html`<p class="empty">No keys yet. Create one above.</p>`
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Prefix</th>
                      <th scope="col">Access</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Status</th>
                      <th scope="col"><span class="sr-only">Actions</span></th>
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

export function revokePage(viewer: Viewer, key: KeyListing): string {
  const name = key.name ?? 'Unnamed key';
  return page(
    { title: 'Revoke key', viewer, current: 'keys', narrow: true },
    html`<div class="card">
      <h1>Revoke “${name}”?</h1>
      <p>
        Requests with <code>${key.prefix ?? 'ppk_'}…</code> are refused (401) at once, on every instance. This cannot be
        undone.
      </p>
      <form method="post" action="${DASHBOARD}/keys/${key.apiKeyId}/revoke" class="actions">
        ${csrfField(viewer.csrfToken)}
        <button type="submit" class="danger">Revoke key</button>
        <a class="button secondary" href="${DASHBOARD}/keys">Cancel</a>
      </form>
    </div>`,
  );
}

export function rollPage(viewer: Viewer, key: KeyListing, problem?: Notice): string {
  const name = key.name ?? 'Unnamed key';
  return page(
    { title: 'Roll key', viewer, current: 'keys', narrow: true },
    html`<div class="card">
      <h1>Roll “${name}”</h1>
      <p>
        A new key with the same name and access replaces <code>${key.prefix ?? 'ppk_'}…</code>. Keep the old one working
        while you deploy the new one.
      </p>
      ${notice(problem)}
      <form method="post" action="${DASHBOARD}/keys/${key.apiKeyId}/roll">
        ${csrfField(viewer.csrfToken)}
        <fieldset ${groupAria(problem, 'grace')}>
          <legend>Old key keeps working for</legend>
          <div class="choices">
            ${GRACE_PERIODS.map(
              (grace) =>
                html`<label
                  ><input
                    type="radio"
                    name="grace"
                    value="${grace.value}"
                    ${grace.value === '24h' ? html` checked` : ''}
                  />
                  ${grace.label}</label
                >`,
            )}
          </div>
        </fieldset>
        <div class="actions">
          <button type="submit">Roll key</button> <a class="button secondary" href="${DASHBOARD}/keys">Cancel</a>
        </div>
      </form>
    </div>`,
  );
}

// The usage page has its own file; the controllers import every page from here.
export { usagePage, type DailyUsage, type RecentRequestView } from './usage-page.js';

export function errorPage(status: number, title: string, message: string, viewer?: Viewer): string {
  return page(
    { title, viewer, narrow: true },
    html`<div class="card">
      <h1>${title}</h1>
      <div class="notice error" role="alert">${message}</div>
      <p><a href="${DASHBOARD}/keys">Back to the dashboard</a></p>
      <p class="muted">Status ${status}</p>
    </div>`,
  );
}

/** What a path under the dashboard that is no page answers (404, HTML): the dashboard's layout and a way back. */
export function dashboardNotFoundPage(): string {
  return errorPage(404, 'Page not found', 'There is no such page in the dashboard.');
}
