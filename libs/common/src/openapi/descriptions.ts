// Operation descriptions that carry the contract's rules into the OpenAPI document (and so into Swagger UI and
// generated clients). The rules every list or update shares are written once here; a controller adds only what is
// its resource's own.

/**
 * A list: what `search` covers, the resource's own filters (one Markdown line each), then paging, order and
 * `updatedSince`, the same for every list.
 */
export function listDescription(search: string, filters: string[] = []): string {
  return [
    `- \`search\`: case-insensitive substring of ${search}; \`%\` and \`_\` match themselves; trimmed, empty means ` +
      'no filter, at most 200 characters.',
    ...filters.map((filter) => `- ${filter}`),
    '- Filters combine with AND; an unknown parameter or filter value is 400.',
    '- `page` ≥ 1 (default 1), `pageSize` 1–50 (default 20); out of range or not an integer: 400. ' +
      '`pagination.pageCount` = ceil(total / pageSize); a page past the end is `data: []` with the true totals.',
    '- `sort`: `-createdAt` (default, newest first), `createdAt`, `-updatedAt` or `updatedAt`; ties by `id` in the ' +
      'same direction, so pages are stable. `updatedSince` keeps records with `updatedAt` ≥ it (a date alone is ' +
      'midnight UTC).',
  ].join('\n');
}

/** The filter line of an enumerated field: one value or a comma-separated list, any of which matches. */
export const enumFilter = (name: string, values: readonly string[]): string =>
  `\`${name}\`: one of ${values.map((value) => `\`${value}\``).join(', ')}, or a comma-separated list of them ` +
  `(\`${name}=${values.slice(0, 2).join(',')}\`) matching any; the parameter may also be repeated.`;

/** A PUT: the partial-update rules, then the resource's own. */
export function updateDescription(...specific: string[]): string {
  return [
    '- Partial update: an omitted field keeps its value; `null` clears a nullable field; `null` or `""` for a ' +
      'required field is 400. An array, when sent, replaces the whole array. `updatedAt` moves on every ' +
      'successful PUT, even one that changes nothing.',
    ...specific.map((rule) => `- ${rule}`),
    '- Swagger UI pre-fills every field: delete the ones you do not mean to change.',
  ].join('\n');
}
