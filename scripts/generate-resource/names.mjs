// The names a resource needs, all derived from its plural kebab-case name (`service-charges`), and the rules a
// name must follow. Pure functions: the generator and its test share them.

const KEBAB = /^[a-z]+(-[a-z]+)*$/;

/**
 * PostgreSQL keywords that cannot be a table alias, and the CTE names of the paging helper
 * (TeamScopedRepository.pageRows): an alias made of a resource's initials must not be one of them.
 */
const UNUSABLE_ALIASES = new Set(
  'all and any as asc both case cast desc do else end for from full in into is join left like not null off on only or page some then to total true user when with'.split(
    ' ',
  ),
);

/** The longest accepted name: index names (`<table>_team_created_idx`) must fit PostgreSQL's 63 characters. */
export const MAX_NAME_LENGTH = 40;

/** The usual English plural of `word`'s last segment undone; irregular plurals need `--singular`. */
export function singularize(plural) {
  if (/[^aeiou]ies$/.test(plural)) return `${plural.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/.test(plural)) return plural.slice(0, -2);
  if (/[^s]s$/.test(plural)) return plural.slice(0, -1);
  return undefined;
}

/**
 * Why `plural` (with an optional explicit `singular`) cannot name a resource, or undefined when it can. Whether
 * a resource of that name already exists is the generator's check (it needs the repository).
 */
export function nameProblem(plural, singular) {
  if (!plural) return 'give the resource a name: npm run generate:resource -- <plural-name>';
  if (!KEBAB.test(plural))
    return `"${plural}" must be kebab-case: lowercase letters a-z, words joined by single hyphens (e.g. service-charges)`;
  if (plural.length > MAX_NAME_LENGTH) return `"${plural}" is longer than ${MAX_NAME_LENGTH} characters`;
  if (singular === undefined) {
    if (!plural.endsWith('s'))
      return `"${plural}" must be plural and end in "s" (for an irregular plural, add --singular <singular-name>)`;
    if (singularize(plural) === undefined)
      return `cannot tell the singular of "${plural}": add --singular <singular-name>`;
    return undefined;
  }
  if (!KEBAB.test(singular)) return `--singular "${singular}" must be kebab-case like the name (e.g. person)`;
  if (singular === plural) return `--singular "${singular}" must differ from the plural name`;
  return undefined;
}

const words = (kebab) => kebab.split('-');
const capitalize = (word) => word[0].toUpperCase() + word.slice(1);
const pascal = (kebab) => words(kebab).map(capitalize).join('');
const camel = (kebab) => {
  const name = pascal(kebab);
  return name[0].toLowerCase() + name.slice(1);
};

/** "an inspection visit", "a unit": by the first letter, with the usual exceptions for a "you" sound. */
function withArticle(phrase) {
  const vowelSound = /^[aeio]/.test(phrase) || (/^u/.test(phrase) && !/^u(ni|s|ti|r[aeiou])/.test(phrase));
  return `${vowelSound ? 'an' : 'a'} ${phrase}`;
}

/** A short SQL alias for the table: the initials of its words (`service-charges` → `sc`), never a keyword. */
function tableAlias(plural) {
  const initials = words(plural)
    .map((word) => word[0])
    .join('');
  return UNUSABLE_ALIASES.has(initials) ? plural.replaceAll('-', '_') : initials;
}

/**
 * Every spelling the templates use, keyed by its placeholder (`__Item__` in a template becomes `ServiceCharge`).
 * `singular` defaults to the regular singular of `plural`.
 */
export function resourceNames(plural, singular = singularize(plural)) {
  const itemText = words(singular).join(' ');
  const itemsText = words(plural).join(' ');
  return {
    'items-kebab': plural,
    'item-kebab': singular,
    Items: pascal(plural),
    Item: pascal(singular),
    items: camel(plural),
    item: camel(singular),
    ITEM: words(singular).join('_').toUpperCase(),
    items_table: words(plural).join('_'),
    Items_text: capitalize(itemsText),
    Item_text: capitalize(itemText),
    items_text: itemsText,
    item_text: itemText,
    a_item_text: withArticle(itemText),
    A_item_text: capitalize(withArticle(itemText)),
    alias: tableAlias(plural),
  };
}
