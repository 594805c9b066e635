// `npm run generate:resource -- <plural-name> [--singular <singular-name>]`: writes a complete team-scoped
// resource in the project's shape from the templates beside this file, registers it in apps/api/src/resources.ts
// and its migration in the migrations index, and formats everything with the project's Prettier settings.
// Nothing is written until every check has passed, so a refused run leaves the tree as it was.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { nameProblem, resourceNames } from './names.mjs';

const TEMPLATES = join(import.meta.dirname, 'templates');
const RESOURCES_FILE = 'apps/api/src/resources.ts';
const MIGRATIONS_DIR = 'libs/database/src/migrations';
const MIGRATIONS_INDEX = `${MIGRATIONS_DIR}/index.ts`;

const USAGE = `usage: npm run generate:resource -- <plural-name> [--singular <singular-name>]

  <plural-name>    the resource's plural in kebab-case: inspections, service-charges
  --singular       its singular when it is not the regular one: people --singular person

Writes apps/api/src/<plural-name>/, a migration, test/factories/<plural-name>.ts and test/<plural-name>.e2e-spec.ts,
and registers the resource in ${RESOURCES_FILE} and ${MIGRATIONS_INDEX}.`;

/** A run the generator will not do; `usage` when the command line itself is wrong. */
class Refusal extends Error {
  constructor(message, { usage = false } = {}) {
    super(message);
    this.usage = usage;
  }
}

/** `__Item__` → the value of `Item`; an unknown placeholder is a template bug, reported as such. */
function render(text, values, source) {
  return text.replace(/__([A-Za-z][A-Za-z_-]*?)__/g, (placeholder, key) => {
    if (!(key in values)) throw new Error(`${source}: unknown placeholder ${placeholder}`);
    return values[key];
  });
}

function templateFiles(folder = TEMPLATES) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return templateFiles(path);
    return entry.name.endsWith('.tmpl') ? [path] : [];
  });
}

function tsFiles(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Type names every TypeScript file can see without importing them. */
const BUILT_IN_TYPES = ['Record', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit', 'Exclude', 'Extract', 'Awaited'];
/** Words a constructor parameter or variable cannot be named in an ES module. */
const RESERVED_WORDS = new Set(['arguments', 'eval', 'implements', 'interface', 'package', 'private', 'protected']);

/**
 * The outside names the templates refer to — imported ones (`Page`, `Module`, `Column`), globals (`Date`,
 * `Promise`) and built-in types (`Record`): a generated class of the same name would shadow one of them.
 */
function namesInUse(templateTexts) {
  const outside = new Set([...BUILT_IN_TYPES, ...Object.getOwnPropertyNames(globalThis)]);
  for (const text of templateTexts) {
    for (const [, list] of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[^.][^']*'/g)) {
      for (const part of list.split(',')) outside.add(part.replace(/^\s*type\s+/, '').trim());
    }
  }
  const used = new Set(templateTexts.flatMap((text) => text.match(/\b[A-Z][A-Za-z]*\b/g) ?? []));
  return new Set([...used].filter((name) => outside.has(name)));
}

/** Why the resource cannot be added to the repository at `root` as it stands, or undefined. */
function conflict(root, values, outputs, templateTexts) {
  if (existsSync(join(root, 'apps/api/src', values['items-kebab'])))
    return `apps/api/src/${values['items-kebab']}/ already exists: choose another name`;
  const taken = outputs.find((output) => existsSync(join(root, output.path)));
  if (taken) return `${taken.path} already exists: choose another name`;

  const table = new RegExp(`CREATE TABLE (IF NOT EXISTS )?${values.items_table}\\b`);
  for (const file of tsFiles(join(root, MIGRATIONS_DIR))) {
    if (table.test(readFileSync(file, 'utf8')))
      return `a table named ${values.items_table} is already created by ${relative(root, file)}`;
  }

  if (namesInUse(templateTexts).has(values.Item))
    return `the class would be called ${values.Item}, which the generated code already uses for something else; choose another name`;
  if (RESERVED_WORDS.has(values.items)) return `"${values.items}" cannot name a variable in JavaScript`;

  // Class, schema and enum names are global in the OpenAPI document and in resources.ts: they must be new.
  const declared = [
    values.Item,
    `${values.Item}Row`,
    `${values.Item}Response`,
    `${values.Item}Status`,
    `Create${values.Item}Dto`,
    `Update${values.Item}Dto`,
    `List${values.Items}Query`,
    `${values.Items}Module`,
    `${values.Items}Controller`,
    `${values.Items}Service`,
    `${values.Items}Repository`,
    `${values.ITEM}_EXAMPLE`,
  ];
  const declaration = new RegExp(
    `(\\b(class|interface|type|enum|const|function)\\s+|\\bimport\\s+(type\\s+)?\\{[^}]*\\b|enumName: ')(${declared.join('|')})\\b`,
  );
  for (const file of [...tsFiles(join(root, 'apps')), ...tsFiles(join(root, 'libs'))]) {
    const found = readFileSync(file, 'utf8').match(declaration);
    if (found) return `${found[4]} is already used by ${relative(root, file)}; choose another name`;
  }
  return undefined;
}

/** The migration timestamp: now, but always after the newest existing migration so the order holds. */
function migrationTimestamp(root) {
  const existing = readdirSync(join(root, MIGRATIONS_DIR))
    .map((file) => Number(/^(\d+)-/.exec(file)?.[1] ?? 0))
    .filter(Number.isFinite);
  return String(Math.max(Date.now(), ...existing.map((timestamp) => timestamp + 1)));
}

/** `lines` with `line` inserted at `index`. */
const insertAt = (lines, index, line) => [...lines.slice(0, index), line, ...lines.slice(index)];

/** The line index of the `];` that closes the array declared on the line matching `opening`. */
function closingLine(lines, opening, file) {
  const start = lines.findIndex((line) => opening.test(line));
  const end = lines.findIndex((line, index) => index > start && /^\];\s*$/.test(line));
  if (start < 0 || end < 0)
    throw new Refusal(`${file} no longer has the list the generator edits (${opening.source}); update the generator`);
  return end;
}

/**
 * resources.ts with the feature's imports (in path order among the feature imports) and its entry appended: the
 * module (routes and, from its controller, the event types), the entity, and the example record the demo team
 * gets. Everything else about the resource is derived from that entry.
 */
function registerResource(text, values) {
  let lines = text.split('\n');
  const folder = values['items-kebab'];
  const names = [values.Item, `${values.Items}Module`, `${values.Items}Service`, `Create${values.Item}Dto`].sort();
  const example = `${values.ITEM}_EXAMPLE`;
  const importLine =
    `import { ${example} } from './${folder}/${values['item-kebab']}.example.js';\n` +
    `import { ${names.join(', ')} } from './${folder}/index.js';`;
  const featureImport = /^import .* from '\.\/([a-z-]+)\/[a-z.-]+\.js';$/;
  const features = lines.flatMap((line, index) => {
    const match = featureImport.exec(line);
    return match ? [{ index, folder: match[1] }] : [];
  });
  if (features.length === 0) throw new Refusal(`${RESOURCES_FILE} has no feature imports to add to`);
  const after = features.find((feature) => feature.folder > folder);
  lines = insertAt(lines, after ? after.index : features[features.length - 1].index + 1, importLine);
  const end = closingLine(lines, /^export const RESOURCES\b/, RESOURCES_FILE);
  // Appended: the list's order is the order of the routes in the API and the OpenAPI document.
  lines = insertAt(
    lines,
    end,
    `  { module: ${values.Items}Module, entities: [${values.Item}], ` +
      `example: { record: ${example}, create: Create${values.Item}Dto, service: ${values.Items}Service } },`,
  );
  return lines.join('\n');
}

/** The migrations index with the new class imported and appended (migrations run in list order). */
function registerMigration(text, className, file) {
  let lines = text.split('\n');
  const lastImport = lines.findLastIndex((line) => /^import /.test(line));
  if (lastImport < 0) throw new Refusal(`${MIGRATIONS_INDEX} has no imports to add to`);
  lines = insertAt(lines, lastImport + 1, `import { ${className} } from './${file.replace(/\.ts$/, '.js')}';`);
  const end = closingLine(lines, /^export const migrations\b/, MIGRATIONS_INDEX);
  lines = insertAt(lines, end, `  ${className},`);
  return lines.join('\n');
}

async function formatted(root, path, text) {
  // Loaded only once every check has passed: a refused run stays instant.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(join(root, path))) ?? {};
  return prettier.format(text, { ...options, filepath: join(root, path) });
}

/** Plans the whole change (paths and contents), refusing before anything is written. */
async function planResource(root, plural, singular) {
  const problem = nameProblem(plural, singular);
  if (problem) throw new Refusal(problem, { usage: true });
  // The example record's id: fixed once generated, as the OpenAPI document and the demo team show it.
  const values = { ...resourceNames(plural, singular), timestamp: migrationTimestamp(root), example_id: randomUUID() };

  const templates = templateFiles().map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const outputs = templates.map(({ file, text }) => {
    const source = relative(TEMPLATES, file);
    return { path: render(source.replace(/\.tmpl$/, ''), values, source), text: render(text, values, source) };
  });
  const why = conflict(
    root,
    values,
    outputs,
    templates.map((template) => template.text),
  );
  if (why) throw new Refusal(why);

  const migration = outputs.find((output) => output.path.startsWith(`${MIGRATIONS_DIR}/`));
  const migrationClass = `Create${values.Items}${values.timestamp}`;
  const edits = [
    { path: RESOURCES_FILE, text: registerResource(readFileSync(join(root, RESOURCES_FILE), 'utf8'), values) },
    {
      path: MIGRATIONS_INDEX,
      text: registerMigration(
        readFileSync(join(root, MIGRATIONS_INDEX), 'utf8'),
        migrationClass,
        relative(MIGRATIONS_DIR, migration.path),
      ),
    },
  ];
  const format = async (change) => ({ ...change, text: await formatted(root, change.path, change.text) });
  return {
    values,
    created: await Promise.all(outputs.map(format)),
    updated: await Promise.all(edits.map(format)),
  };
}

function write(root, changes) {
  for (const { path, text } of changes) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function main() {
  const { values: options, positionals } = parseArgs({
    allowPositionals: true,
    options: { singular: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 1)
    throw new Refusal(`one resource name at a time, got: ${positionals.join(' ')}`, { usage: true });
  const root = join(import.meta.dirname, '..', '..');
  const plan = await planResource(root, positionals[0], options.singular);
  write(root, [...plan.created, ...plan.updated]);

  const { values } = plan;
  const list = (changes) => changes.map((change) => `  ${change.path}`).join('\n');
  process.stdout.write(
    `Generated ${values.items_text} (${values.Item}, table ${values.items_table}, /v1/${values['items-kebab']}):\n` +
      `${list(plan.created)}\nRegistered in:\n${list(plan.updated)}\n\n` +
      `Next: npm test -- test/${values['items-kebab']}.e2e-spec.ts, then shape the fields (docs/adding-a-resource.md).\n`,
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  const badArguments = error instanceof TypeError && String(error.code).startsWith('ERR_PARSE_ARGS');
  if (!(error instanceof Refusal) && !badArguments) throw error;
  const usage = badArguments || error.usage ? `\n${USAGE}\n` : '';
  process.stderr.write(`generate:resource: ${error.message}\n${usage}`);
  process.exitCode = 2;
}
