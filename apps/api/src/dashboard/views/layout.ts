import { html, type SafeHtml } from './html.js';

export const DASHBOARD = '/dashboard';

/** The signed-in person, for the header; absent on the sign-in and sign-up pages. */
export interface Viewer {
  email: string;
  teamName: string;
  csrfToken: string;
}

export interface PageOptions {
  title: string;
  viewer?: Viewer;
  /** The navigation entry to mark as the current page. */
  current?: 'keys' | 'usage' | 'webhooks' | 'imports';
  narrow?: boolean;
}

export type Notice = { kind: 'error' | 'success' | 'info'; text: string } | undefined;

export function notice(value: Notice): SafeHtml {
  if (!value) return html``;
  // Errors interrupt (role=alert), other news is announced politely.
  return value.kind === 'error'
    ? html`<div class="notice error" role="alert">${value.text}</div>`
    : html`<div class="notice ${value.kind}" role="status">${value.text}</div>`;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}

function navigation(current: PageOptions['current']): SafeHtml {
  const item = (page: NonNullable<PageOptions['current']>, label: string) =>
    html`<li><a href="${DASHBOARD}/${page}" ${current === page ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Dashboard">
    <ul>
      ${item('keys', 'API keys')}${item('usage', 'Usage')}${item('webhooks', 'Webhooks')}${item('imports', 'Imports')}
    </ul>
  </nav>`;
}

export function page({ title, viewer, current, narrow }: PageOptions, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Property Portfolio API</title>
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
            ${viewer ? navigation(current) : ''}
            ${
              viewer
                ? html`<div class="who">
                    <span>${viewer.email} · ${viewer.teamName}</span>
                    <form method="post" action="${DASHBOARD}/sign-out">
                      ${csrfField(viewer.csrfToken)}<button type="submit">Sign out</button>
                    </form>
                  </div>`
                : html`<div class="who"><a href="/docs">API docs</a></div>`
            }
          </div>
        </header>
        <main id="main" ${narrow ? html` class="narrow"` : ''}>${body}</main>
      </body>
    </html>`.text;
}
