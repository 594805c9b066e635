/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's `chromium` package (CHROMIUM_PATH overrides); Playwright never downloads a browser here. */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));

/**
 * Browser suites run when Chromium is installed. Without it they are skipped with a warning on a developer's
 * machine, but `.ci/run` installs it and sets CI, so there a missing browser fails the run instead.
 */
export function browserSuitesRun(suite: string): boolean {
  if (CHROMIUM_PATH || process.env.CI) return true;
  console.warn(
    `\n!!! SKIPPED: ${suite} — no Chromium found. Install Debian's package (apt-get install -y chromium) or set ` +
      'CHROMIUM_PATH; with CI set they fail instead of being skipped.\n',
  );
  return false;
}

export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM_PATH) throw new Error('CI is set but Chromium is not installed: apt-get install -y chromium');
  // No sandbox: CI runs as root, where Chromium refuses its sandbox.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Every violation axe-core finds on the page as it is now (WCAG 2.x A and AA rules, and best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations;
  });
  return (violations as AxeViolation[]).map(({ id, impact, help, nodes }) => ({
    id,
    impact,
    help,
    nodes: nodes.map(({ target }) => ({ target })),
  }));
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
}

/**
 * A full-page screenshot into `docs/images/`, which the README and docs/dashboard.md show: every run of the
 * browser suite writes them again, so they cannot fall behind the pages.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = fileURLToPath(new URL('../../docs/images/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `dashboard-${name}.png`), fullPage: true });
}
