/** Markup that is already safe to send: only `html` and `raw` make one. */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

type Interpolated = SafeHtml | string | number | null | undefined | false | Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every interpolated value unless it is already `SafeHtml` (nested templates),
 * so text from a person or the database can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let text = strings[0];
  values.forEach((value, index) => (text += render(value) + strings[index + 1]));
  return new SafeHtml(text);
}

/** Trusted markup written in this code base (never user input). */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}
