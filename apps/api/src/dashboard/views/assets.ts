/**
 * The dashboard's only static files, served from memory at `/dashboard/assets/…` (no outside host, no build
 * step). The Content-Security-Policy allows scripts and styles from this origin only, so nothing is inline.
 */
export const DASHBOARD_CSS = `
:root {
  --ink: #1b2430; --muted: #5b6675; --line: #dde3ea; --bg: #f5f7fa; --card: #fff;
  --brand: #1f5eff; --brand-ink: #fff; --danger: #b42318; --danger-bg: #fef3f2; --ok: #067647; --ok-bg: #ecfdf3;
  --warn: #93370d; --warn-bg: #fffaeb; --focus: #f79009;
  --series-ok: #079455; --series-client: #dc6803; --series-limited: #7a5af8; --series-server: #d92d20;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg); line-height: 1.5;
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--brand); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--card); padding: .5rem 1rem; z-index: 10; }
header.top { background: #101828; color: #fff; }
header.top .bar { max-width: 72rem; margin: 0 auto; display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.5rem; padding: .75rem 1.5rem; }
header.top .brand { font-weight: 700; color: #fff; text-decoration: none; display: flex; white-space: nowrap; gap: .5rem; align-items: center; }
header.top .brand .logo { display: block; width: 1.75rem; height: 1.75rem; }
header.top nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: 0; }
header.top nav a { color: #d0d5dd; text-decoration: none; padding: .4rem .75rem; border-radius: .4rem; white-space: nowrap; }
header.top nav a[aria-current="page"], header.top nav a:hover { background: #344054; color: #fff; }
header.top .who { margin-left: auto; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; color: #d0d5dd; font-size: .9rem; min-width: 0; overflow-wrap: anywhere; }
header.top .who form { margin: 0; }
header.top .who a { color: #d0d5dd; }
main { max-width: 72rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
main.narrow { max-width: 28rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 0 0 1rem; }
.lead { color: var(--muted); margin: 0 0 1.5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1.5rem; margin-bottom: 1.5rem; box-shadow: 0 1px 2px rgba(16,24,40,.05); }
label, legend { display: block; font-weight: 600; margin-bottom: .35rem; }
legend { padding: 0; }
fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
.field { margin-bottom: 1rem; }
.hint { color: var(--muted); font-size: .875rem; font-weight: 400; margin: .25rem 0 0; }
input[type=text], input[type=email], input[type=password], input[type=date] {
  width: 100%; padding: .6rem .75rem; border: 1px solid #98a2b3; border-radius: .5rem; font: inherit; background: #fff; color: var(--ink);
}
input[aria-invalid=true] { border-color: var(--danger); box-shadow: 0 0 0 1px var(--danger); }
.checks { margin-top: .5rem; }
.check-row { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.check-row label { min-width: 13rem; }
.checks label { display: flex; gap: .5rem; align-items: center; font-weight: 400; margin: 0; padding: .3rem .4rem; border-radius: .35rem; cursor: pointer; }
.checks label:hover { background: var(--bg); }
.checks code { font-size: .875rem; }
input[type=checkbox], input[type=radio] { width: 1.05rem; height: 1.05rem; margin: 0; accent-color: var(--brand); }
.choices { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
.choices label { display: flex; gap: .4rem; align-items: center; font-weight: 400; margin: 0; }
.row { display: grid; grid-template-columns: 2fr 2fr 1fr; gap: 1rem; align-items: start; }
@media (max-width: 48rem) { .row { grid-template-columns: 1fr; } }
button, .button { font: inherit; font-weight: 600; border-radius: .5rem; padding: .55rem 1rem; border: 1px solid var(--brand); background: var(--brand); color: var(--brand-ink); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--ink); border-color: #98a2b3; }
button.danger, .button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button.small, .button.small { padding: .3rem .7rem; font-size: .875rem; }
header.top button { background: transparent; border-color: #667085; color: #fff; padding: .3rem .8rem; white-space: nowrap; }
header.top .mode { display: flex; }
header.top button.mode-switch { display: flex; align-items: center; gap: .5rem; border-color: transparent; padding: .3rem .5rem; }
.mode-switch .track { position: relative; width: 2.1rem; height: 1.2rem; border-radius: 1rem; background: #344054; border: 1px solid #98a2b3; flex: none; }
.mode-switch .track::after { content: ''; position: absolute; top: .15rem; left: .15rem; width: .8rem; height: .8rem; border-radius: 50%; background: #fff; }
.mode-switch[aria-pressed="true"] .track { background: #fec84b; border-color: #fec84b; }
.mode-switch[aria-pressed="true"] .track::after { left: auto; right: .15rem; background: #101828; }
.test-banner { background: #fec84b; color: #101828; }
.test-banner .bar { max-width: 72rem; margin: 0 auto; padding: .55rem 1.5rem; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; align-items: center; justify-content: space-between; }
.test-banner p { margin: 0; }
.test-banner a { color: #101828; font-weight: 600; }
.test-banner a:focus-visible { outline-color: #101828; }
.actions { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
table { width: 100%; border-collapse: collapse; font-size: .925rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .5rem; }
th, td { text-align: left; padding: .6rem .75rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
thead th { color: var(--muted); font-weight: 600; font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; }
tbody th { font-weight: 600; }
.table-wrap + .table-wrap { margin-top: 1.75rem; }
.row-actions { display: flex; gap: .5rem; justify-content: flex-end; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td form { margin: 0; }
.table-wrap { overflow-x: auto; position: relative; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; background: #f2f4f7; color: #344054; }
.badge.active { background: var(--ok-bg); color: var(--ok); }
.badge.revoked, .badge.expired { background: var(--danger-bg); color: var(--danger); }
.badge.rolled { background: var(--warn-bg); color: var(--warn); }
.notice { border-radius: .5rem; padding: .85rem 1rem; margin-bottom: 1.25rem; border: 1px solid; }
.notice.error { background: var(--danger-bg); border-color: #fecdca; color: var(--danger); }
.notice.success { background: var(--ok-bg); border-color: #abefc6; color: var(--ok); }
.notice.info { background: #eff8ff; border-color: #b2ddff; color: #175cd3; }
.secret { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; background: #101828; color: #fff; border-radius: .5rem; padding: .85rem 1rem; margin: .75rem 0; }
.secret code { font-size: 1rem; word-break: break-all; flex: 1; }
.secret button { background: #fff; color: #101828; border-color: #fff; }
.muted { color: var(--muted); }
.empty { color: var(--muted); text-align: center; padding: 2rem; }
.auth-switch { text-align: center; margin-top: 1rem; color: var(--muted); }
.status-2xx { color: var(--ok); } .status-4xx { color: var(--warn); } .status-429, .status-5xx { color: var(--danger); }
h3 { font-size: 1rem; margin: 0; }
.prefix { color: var(--muted); font-weight: 400; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .35rem 1.25rem; margin: -.25rem 0 1rem; padding: 0; font-size: .875rem; color: var(--muted); }
.legend li { display: flex; align-items: center; gap: .4rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: .2rem; }
.swatch.ok { background: var(--series-ok); } .swatch.client { background: var(--series-client); }
.swatch.limited { background: var(--series-limited); } .swatch.server { background: var(--series-server); }
.key-usage { border-top: 1px solid var(--line); padding: 1rem 0 .25rem; }
.key-usage:first-of-type { border-top: 0; padding-top: 0; }
.key-usage .hint { margin: 0 0 .5rem; }
.key-usage-body { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 1.5rem; align-items: start; }
@media (max-width: 48rem) { .key-usage-body { grid-template-columns: 1fr; } }
.key-usage table th, .key-usage table td { padding: .3rem .6rem; }
.key-usage caption { font-weight: 400; padding: 0 0 .25rem; }
.chart { display: block; max-width: 100%; height: auto; overflow: visible; }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart .axis { fill: var(--muted); font-size: 10px; font-family: inherit; }
.chart .axis.today { fill: var(--ink); font-weight: 700; }
.chart .slot { fill: transparent; }
.chart g:hover .slot { fill: #eef2f6; }
.chart .bar.ok { fill: var(--series-ok); } .chart .bar.client { fill: var(--series-client); }
.chart .bar.limited { fill: var(--series-limited); } .chart .bar.server { fill: var(--series-server); }
.idle-keys { border-top: 1px solid var(--line); padding-top: 1rem; margin-top: .75rem; }
.idle-keys h3 { font-size: .9rem; color: var(--muted); margin-bottom: .35rem; }
.idle-keys ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; margin: 0; padding: 0; }
.table-wrap.scroll { max-height: 30rem; overflow-y: auto; border: 1px solid var(--line); border-radius: .5rem; }
.table-wrap.scroll thead th { position: sticky; top: 0; background: var(--card); box-shadow: inset 0 -1px 0 var(--line); }
.table-wrap.scroll th, .table-wrap.scroll td { padding: .4rem .75rem; }
.table-wrap.scroll tbody tr:last-child td { border-bottom: 0; }
.table-wrap.scroll td:nth-child(-n+2) { white-space: nowrap; }
.progress { display: flex; align-items: center; gap: .5rem; white-space: nowrap; }
.progress progress { appearance: none; width: 5rem; height: .75rem; border: 1px solid #98a2b3; border-radius: .4rem; overflow: hidden; background: #eaecf0; }
.progress progress::-webkit-progress-bar { background: #eaecf0; }
.progress progress::-webkit-progress-value { background: var(--brand); }
.progress progress::-moz-progress-bar { background: var(--brand); }
.nowrap { white-space: nowrap; }
.progress .num { font-variant-numeric: tabular-nums; color: var(--muted); font-size: .875rem; }
.pager { display: flex; gap: 1rem; align-items: center; justify-content: flex-end; margin-top: 1rem; color: var(--muted); font-size: .875rem; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1.5rem; margin: 0; }
.facts dt { color: var(--muted); font-weight: 600; }
.facts dd { margin: 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const DASHBOARD_JS = `
'use strict';
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  const status = document.getElementById(button.getAttribute('data-copy') + '-status');
  if (!source) return;
  const text = source.textContent.trim();
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    copied = document.execCommand('copy');
  }
  if (status) status.textContent = copied ? 'Copied to the clipboard' : 'Select the key and copy it by hand';
  button.textContent = copied ? 'Copied' : 'Copy';
});
`;
