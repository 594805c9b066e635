import type { SandboxResetResponse } from '../../sandbox/index.js';
import { html } from './html.js';
import { csrfField, DASHBOARD, notice, page, type Notice, type Viewer } from './layout.js';

export interface SandboxView {
  viewer: Viewer;
  sandboxTeamId: string;
  notice?: Notice;
}

const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/** What a reset did, as the page's result message. */
export function sandboxResult({ sampleData, records }: SandboxResetResponse): string {
  if (!sampleData) return 'The sandbox is reset: it holds no records and no imports now. Your live team is unchanged.';
  return (
    `Sample data loaded: ${plural(records.landlords, 'landlord')}, ${plural(records.contractors, 'contractor')}, ` +
    `${plural(records.units, 'unit')}, ${plural(records.tenants, 'tenant')} and ` +
    `${plural(records.workOrders, 'work order')} (with ${plural(records.workOrderNotes, 'note')}). ` +
    'Your live team is unchanged.'
  );
}

/** Test mode's Sandbox page: what the sandbox is, and its two resets. */
export function sandboxPage(view: SandboxView): string {
  return page(
    { title: 'Sandbox', viewer: view.viewer, current: 'sandbox' },
    html`<h1>Sandbox</h1>
      <p class="lead">
        Your sandbox is a team of its own for trying the API: test keys (<code>ppk_test_…</code>) see and change only
        its records, events, webhooks and imports, and live keys never see them. Its records carry the sandbox's team
        id, <code>${view.sandboxTeamId}</code>.
      </p>
      ${notice(view.notice)}
      <section class="card" aria-labelledby="sample-title">
        <h2 id="sample-title">Load sample data</h2>
        <p id="sample-hint">
          Empties the sandbox, then fills it with a small sample portfolio: landlords, contractors, units, tenants and
          work orders in every status, with notes.
        </p>
        <form method="get" action="${DASHBOARD}/sandbox/reset">
          <input type="hidden" name="sampleData" value="yes" />
          <button type="submit" aria-describedby="sample-hint">Load sample data</button>
        </form>
      </section>
      <section class="card" aria-labelledby="reset-title">
        <h2 id="reset-title">Reset sandbox</h2>
        <p id="reset-hint">
          Deletes every record of the sandbox (with its notes, attachments and history) and its imports. Its test keys,
          webhook endpoints and events feed stay. Your live team is never touched.
        </p>
        <form method="get" action="${DASHBOARD}/sandbox/reset">
          <input type="hidden" name="sampleData" value="no" />
          <button type="submit" class="danger" aria-describedby="reset-hint">Reset sandbox</button>
        </form>
      </section>`,
  );
}

/** What a reset deletes, said on its confirmation page. */
const DELETED =
  'every record of the sandbox (with its notes, attachments and history) and its imports are deleted; its test ' +
  'keys, webhook endpoints and events feed stay, and your live team is never touched';

/** The confirmation a reset asks for first (it cannot be undone): the button that does it, or Cancel. */
export function sandboxConfirmPage(viewer: Viewer, sampleData: boolean): string {
  const action = sampleData ? 'Load sample data' : 'Reset sandbox';
  return page(
    { title: action, viewer, current: 'sandbox', narrow: true },
    html`<div class="card">
      <h1>${sampleData ? 'Load sample data into the sandbox?' : 'Reset the sandbox?'}</h1>
      <p>
        ${
          sampleData
            ? `First ${DELETED}. Then the sample portfolio is loaded.`
            : `${DELETED.charAt(0).toUpperCase()}${DELETED.slice(1)}.`
        }
        This cannot be undone.
      </p>
      <form method="post" action="${DASHBOARD}/sandbox/reset" class="actions">
        ${csrfField(viewer.csrfToken)}<input type="hidden" name="sampleData" value="${sampleData ? 'yes' : 'no'}" />
        <button type="submit" class="danger">${action}</button>
        <a class="button secondary" href="${DASHBOARD}/sandbox">Cancel</a>
      </form>
    </div>`,
  );
}
