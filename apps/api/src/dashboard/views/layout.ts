import { html, type SafeHtml } from './html.js';

export const DASHBOARD = '/dashboard';

/** The signed-in person, for the header; absent on the sign-in and sign-up pages. */
export interface Viewer {
  email: string;
  teamName: string;
  csrfToken: string;
  /** The pages show the team's sandbox ("Test mode"). */
  testMode: boolean;
}

/** The pages with a navigation entry; `sandbox` is there in test mode only. */
export const SECTIONS = ['keys', 'usage', 'webhooks', 'imports', 'sandbox'] as const;
export type Section = (typeof SECTIONS)[number];

/** The banner every page shows in test mode (CONTRACT "Test mode (sandbox)"). */
export const TEST_MODE_BANNER = 'you are viewing your sandbox; test keys (ppk_test_…) see only this data.';

export interface PageOptions {
  title: string;
  viewer?: Viewer;
  /** The navigation entry to mark as the current page. */
  current?: Section;
  narrow?: boolean;
}

export type Notice =
  | {
      kind: 'error' | 'success' | 'info';
      text: string;
      /** The form field (its `name`) an error is about: marked invalid, and described by the error. */
      field?: string;
    }
  | undefined;

/** The error notice's id, for the field it is about (`aria-describedby`). */
const PROBLEM_ID = 'form-problem';

export function notice(value: Notice): SafeHtml {
  if (!value) return html``;
  // Errors interrupt (role=alert), other news is announced politely.
  return value.kind === 'error'
    ? html`<div class="notice error" role="alert" id="${PROBLEM_ID}">${value.text}</div>`
    : html`<div class="notice ${value.kind}" role="status">${value.text}</div>`;
}

/**
 * A form field's ARIA attributes: described by its hint (an element id), and, when `shown` is an error about it,
 * marked `aria-invalid` and described by that error first, so a screen reader names the problem at the field.
 */
export function fieldAria(shown: Notice, field: string, hint?: string): SafeHtml {
  const invalid = shown?.kind === 'error' && shown.field === field;
  const described = [invalid ? PROBLEM_ID : '', hint ?? ''].filter(Boolean).join(' ');
  return html`${invalid ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
}

/** `fieldAria` for a group of radios or checkboxes (a fieldset): described by the error, not marked (no ARIA for it). */
export function groupAria(shown: Notice, field: string, hint?: string): SafeHtml {
  const invalid = shown?.kind === 'error' && shown.field === field;
  const described = [invalid ? PROBLEM_ID : '', hint ?? ''].filter(Boolean).join(' ');
  return described ? html` aria-describedby="${described}"` : html``;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}

function navigation(current: PageOptions['current'], testMode: boolean): SafeHtml {
  const item = (page: Section, label: string) =>
    html`<li><a href="${DASHBOARD}/${page}" ${current === page ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Dashboard">
    <ul>
      ${item('keys', 'API keys')}${item('usage', 'Usage')}${item('webhooks', 'Webhooks')}${item('imports', 'Imports')}
      ${testMode ? item('sandbox', 'Sandbox') : ''}
    </ul>
  </nav>`;
}

/**
 * The "Test mode" switch: a form posting the other mode, its button a toggle (`aria-pressed`) named "Test mode".
 * After the switch the person is back on the same section (an item page, e.g. a live key's, has no sandbox twin).
 */
function testModeSwitch(viewer: Viewer, current: PageOptions['current']): SafeHtml {
  const back = viewer.testMode && current === 'sandbox' ? 'keys' : (current ?? 'keys');
  return html`<form method="post" action="${DASHBOARD}/test-mode" class="mode">
    ${csrfField(viewer.csrfToken)}<input type="hidden" name="testMode" value="${viewer.testMode ? 'off' : 'on'}" />
    <input type="hidden" name="back" value="${back}" />
    <button type="submit" class="mode-switch" aria-pressed="${viewer.testMode ? 'true' : 'false'}">
      <span class="track" aria-hidden="true"></span>Test mode
    </button>
  </form>`;
}

/** Test mode's banner, in the page header so no page can leave it out. */
function testModeBanner(): SafeHtml {
  return html`<div class="test-banner">
    <div class="bar">
      <p><strong>Test mode:</strong> ${TEST_MODE_BANNER}</p>
      <a href="${DASHBOARD}/sandbox">Reset or load sample data</a>
    </div>
  </div>`;
}

export function page({ title, viewer, current, narrow }: PageOptions, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}${viewer?.testMode ? ' (Test mode)' : ''} · Property Portfolio API</title>
        <link rel="icon" href="${DASHBOARD}/assets/favicon.svg" type="image/svg+xml" />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="stylesheet" href="${DASHBOARD}/assets/dashboard.css" />
        <script src="${DASHBOARD}/assets/dashboard.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <div class="bar">
            <a class="brand" href="${DASHBOARD}"
              ><img class="logo" src="${DASHBOARD}/assets/favicon.svg" alt="" width="28" height="28" /> Property
              Portfolio API</a
            >
            ${viewer ? navigation(current, viewer.testMode) : ''}
            ${
              viewer
                ? html`<div class="who">
                    ${testModeSwitch(viewer, current)}
                    <span>${viewer.email} · ${viewer.teamName}</span>
                    <form method="post" action="${DASHBOARD}/sign-out">
                      ${csrfField(viewer.csrfToken)}<button type="submit">Sign out</button>
                    </form>
                  </div>`
                : html`<div class="who"><a href="/docs">API docs</a></div>`
            }
          </div>
          ${viewer?.testMode ? testModeBanner() : ''}
        </header>
        <main id="main" ${narrow ? html` class="narrow"` : ''}>${body}</main>
      </body>
    </html>`.text;
}
