// `npm run test:generator [-- --keep]`: proves the generator in a throwaway copy of the repository (its tracked
// files as they are in the working tree, node_modules linked): generate a resource, then type-check, lint,
// format-check and architecture-check it, build, run its migration down and up again, run its own e2e spec and
// the contract suites (test/contract.e2e-spec.ts, contract-external-ref, contract-history and contract-exports, which find it in
// the registration list), and prove it
// first-class on the built service (first-class.mjs: its events on the feed with `types=`, a webhook endpoint
// for them) — with no hand edits. Any failure fails the run. `--keep` leaves the copy for a look afterwards.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { nameProblem, resourceNames, singularize } from './names.mjs';

const root = join(import.meta.dirname, '..', '..');
const keep = process.argv.includes('--keep');
/** The throwaway resource: two words, so every spelling (kebab, camel, Pascal, snake, words) differs. */
const NAME = 'inspection-visits';
const names = resourceNames(NAME);
const EXPECTED_FILES = [
  `apps/api/src/${NAME}/dto/create-inspection-visit.dto.ts`,
  `apps/api/src/${NAME}/dto/inspection-visit.response.ts`,
  `apps/api/src/${NAME}/dto/list-${NAME}.query.ts`,
  `apps/api/src/${NAME}/dto/update-inspection-visit.dto.ts`,
  `apps/api/src/${NAME}/index.ts`,
  `apps/api/src/${NAME}/inspection-visit.entity.ts`,
  `apps/api/src/${NAME}/inspection-visit.example.ts`,
  `apps/api/src/${NAME}/inspection-visit.row.ts`,
  `apps/api/src/${NAME}/${NAME}.controller.ts`,
  `apps/api/src/${NAME}/${NAME}.module.ts`,
  `apps/api/src/${NAME}/${NAME}.repository.ts`,
  `apps/api/src/${NAME}/${NAME}.service.ts`,
  `libs/database/src/migrations/<timestamp>-create-${NAME}.ts`,
  `test/${NAME}.e2e-spec.ts`,
  `test/factories/${NAME}.ts`,
];
const REGISTRATIONS = ['apps/api/src/resources.ts', 'libs/database/src/migrations/index.ts'];

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const say = (line) => process.stdout.write(`${line}\n`);

/** The derived names, and the names the generator must refuse, checked without touching any file. */
function checkNames() {
  assert.deepEqual(
    [NAME, 'service-charges', 'properties', 'addresses', 'boxes', 'branches'].map((plural) => singularize(plural)),
    ['inspection-visit', 'service-charge', 'property', 'address', 'box', 'branch'],
  );
  assert.deepEqual(
    { ...names },
    {
      'items-kebab': 'inspection-visits',
      'item-kebab': 'inspection-visit',
      Items: 'InspectionVisits',
      Item: 'InspectionVisit',
      items: 'inspectionVisits',
      item: 'inspectionVisit',
      ITEM: 'INSPECTION_VISIT',
      items_table: 'inspection_visits',
      Items_text: 'Inspection visits',
      Item_text: 'Inspection visit',
      items_text: 'inspection visits',
      item_text: 'inspection visit',
      a_item_text: 'an inspection visit',
      A_item_text: 'An inspection visit',
      alias: 'iv',
    },
  );
  assert.equal(resourceNames('people', 'person').Item, 'Person');
  assert.equal(resourceNames('units').a_item_text, 'a unit');
  // Initials that are an SQL keyword fall back to the table name.
  assert.equal(resourceNames('account-sales').alias, 'account_sales');
  for (const [plural, singular, problem] of [
    [undefined, undefined, /give the resource a name/],
    ['Inspections', undefined, /kebab-case/],
    ['inspection_visits', undefined, /kebab-case/],
    ['inspection--visits', undefined, /kebab-case/],
    ['inspections2', undefined, /kebab-case/],
    ['inspection', undefined, /end in "s"/],
    ['people', undefined, /end in "s".*--singular/],
    ['access', undefined, /cannot tell the singular/],
    ['people', 'People', /--singular "People" must be kebab-case/],
    ['sheep', 'sheep', /must differ/],
    [`${'a'.repeat(40)}s`, undefined, /longer than 40/],
  ]) {
    assert.match(nameProblem(plural, singular) ?? 'accepted', problem, `${plural} ${singular ?? ''}`);
  }
  assert.equal(nameProblem('people', 'person'), undefined);
  assert.equal(nameProblem(NAME), undefined);
}

/** The repository's tracked files as they are in the working tree, copied to a fresh folder. */
function copyRepository() {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  if (!existsSync(join(root, 'node_modules'))) throw new Error('node_modules missing: run npm ci first');
  const copy = mkdtempSync(join(tmpdir(), 'ppa-generator-'));
  // Embedded PostgreSQL runs as the `postgres` user when we are root: it must be able to reach its data folder.
  chmodSync(copy, 0o755);
  const files = listed.stdout.split('\0').filter((file) => file && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return { copy, files };
}

/** Runs a command in the copy; resolves with its output, rejects with it on a non-zero exit. */
function run(cwd, label, command, args, env = {}) {
  const since = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, CI: process.env.CI ?? 'true', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) {
        say(`  ok  ${label} (${seconds(since)})`);
        resolve(output);
      } else {
        reject(new Error(`${label} failed (exit ${code}) after ${seconds(since)}:\n${output}`));
      }
    });
  });
}

const node = (cwd, label, args, env) => run(cwd, label, process.execPath, args, env);
const generator = ['scripts/generate-resource/generate.mjs'];

/** Every file under `folder` (relative), node_modules and build output aside. */
function walk(folder, base = folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', '.data', '.git'].includes(entry.name)) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

/** The generator refuses bad and taken names, and changes nothing when it does. */
function checkRefusals(copy, taken) {
  const before = REGISTRATIONS.map((file) => readFileSync(join(copy, file), 'utf8'));
  for (const [args, message] of [
    [['Inspection-Visits'], /kebab-case/],
    [['inspection-visit'], /end in "s"/],
    [['landlords'], /already exists/],
    [['teams'], /table named teams/],
    [['dates'], /class would be called Date/],
    [[NAME, 'second-name'], /one resource name at a time/],
    [['--singular'], /argument missing/],
    ...taken.map((name) => [[name], /already exists/]),
  ]) {
    const result = spawnSync(process.execPath, [...generator, ...args], { cwd: copy, encoding: 'utf8' });
    assert.equal(result.status, 2, `generate ${args.join(' ')} should be refused:\n${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message);
  }
  assert.deepEqual(
    REGISTRATIONS.map((file) => readFileSync(join(copy, file), 'utf8')),
    before,
  );
}

/**
 * Lists the depcruise violations that involve a generated or edited file; others (already on the branch) are
 * `npm run check:architecture`'s own business in CI and are only counted here.
 */
function architectureViolations(json, files) {
  const { summary } = JSON.parse(json);
  const involved = (violation) =>
    [violation.from, violation.to, ...(violation.cycle ?? []).map((step) => step.name ?? step)].some((module) =>
      files.includes(module),
    );
  const ours = summary.violations.filter(involved);
  const others = summary.violations.length - ours.length;
  if (others > 0) say(`      (${others} violation(s) outside the generated files, left to check:architecture)`);
  return ours.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
}

async function main() {
  say(`test:generator: generating "${NAME}" in a copy of the repository`);
  checkNames();
  say('  ok  names and refusals of bad names');
  const { copy, files } = copyRepository();
  say(`  ok  copied ${files.length} tracked files to ${copy}`);
  try {
    checkRefusals(copy, []);
    const tracked = new Map(files.map((file) => [file, readFileSync(join(copy, file), 'utf8')]));
    say(await node(copy, `npm run generate:resource -- ${NAME}`, [...generator, NAME]));

    // Exactly the expected files are new, and only the two registration lists changed.
    const created = walk(copy)
      .filter((file) => !tracked.has(file))
      .sort();
    const timestamp = /migrations\/(\d+)-create-/.exec(created.join('\n'))?.[1] ?? '<missing>';
    assert.deepEqual(created, EXPECTED_FILES.map((file) => file.replace('<timestamp>', timestamp)).sort());
    const changed = [...tracked].filter(([file, text]) => readFileSync(join(copy, file), 'utf8') !== text);
    assert.deepEqual(changed.map(([file]) => file).sort(), REGISTRATIONS);
    checkRefusals(copy, [NAME]);
    say('  ok  generated files, registrations, and refusal to generate them twice');

    const touched = [...created, ...REGISTRATIONS];
    const spec = `test/${NAME}.e2e-spec.ts`;
    const bin = {
      tsc: 'node_modules/typescript/bin/tsc',
      eslint: 'node_modules/eslint/bin/eslint.js',
      prettier: 'node_modules/prettier/bin/prettier.cjs',
      depcruise: 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
    };
    // Everything runs side by side except what needs the build (the tests' global setup and the migration
    // round trip load the copy's dist/). All are awaited, so no process outlives the copy.
    const build = node(copy, 'build (scripts/build.mjs)', ['scripts/build.mjs']);
    const afterBuild = (step) => build.then(step, () => Promise.reject(new Error('skipped: the build failed')));
    const steps = {
      build,
      typecheck: node(copy, 'typecheck (tsc --noEmit -p tsconfig.json)', [bin.tsc, '--noEmit', '-p', 'tsconfig.json']),
      lint: node(copy, 'eslint on the generated and edited files', [bin.eslint, ...touched]),
      format: node(copy, 'prettier --check on the same files', [bin.prettier, '--check', ...touched]),
      architecture: node(copy, 'check:architecture (depcruise, violations in these files)', [
        bin.depcruise,
        'apps',
        'libs',
        '--config',
        '.dependency-cruiser.cjs',
        '--output-type',
        'json',
      ]).then(
        (json) => architectureViolations(json, touched),
        (error) => {
          // depcruise exits non-zero on any violation; which ones involve our files is read from its report.
          const json = /\{[\s\S]*\}\s*$/.exec(error.message)?.[0];
          if (!json) throw error;
          return architectureViolations(json, touched);
        },
      ),
      migration: afterBuild(() =>
        node(copy, 'migration up, down, up', ['scripts/generate-resource/migration-round-trip.mjs', names.items_table]),
      ),
      firstClass: afterBuild(() =>
        node(copy, 'first-class: the built service, the feed with types=, a webhook endpoint for the type', [
          'scripts/generate-resource/first-class.mjs',
          NAME,
          names.item_text.replaceAll(' ', '_'),
        ]),
      ),
      jest: afterBuild(() =>
        node(
          copy,
          `jest ${spec} test/contract.e2e-spec.ts test/contract-external-ref.e2e-spec.ts test/contract-history.e2e-spec.ts test/contract-exports.e2e-spec.ts`,
          [
            '--experimental-vm-modules',
            '--no-warnings=ExperimentalWarning',
            'node_modules/jest/bin/jest.js',
            '--runTestsByPath',
            spec,
            // The table-driven contract suites, which take the new resource from the registration list (only it:
            // the seed resources pass the suites in `npm test`): the generic contract, the record history and the
            // CSV export.
            'test/contract.e2e-spec.ts',
            'test/contract-external-ref.e2e-spec.ts',
            'test/contract-history.e2e-spec.ts',
            'test/contract-exports.e2e-spec.ts',
          ],
          { CONTRACT_RESOURCES: `/v1/${NAME}` },
        ),
      ),
    };
    const results = await Promise.allSettled(Object.values(steps));
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason.message] : []));
    const ours = results[Object.keys(steps).indexOf('architecture')].value ?? [];
    if (ours.length > 0) failures.push(`the generated files break the architecture rules:\n${ours.join('\n')}`);
    if (failures.length > 0) throw new Error(failures.join('\n\n'));

    const tests = /Tests:\s+(.*)/.exec(results[Object.keys(steps).indexOf('jest')].value)?.[1] ?? 'see output';
    say(`test:generator passed in ${seconds(started)}: ${created.length} files generated; ${spec}: ${tests}`);
  } finally {
    if (keep) say(`kept the copy: ${copy}`);
    else rmSync(copy, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\ntest:generator FAILED after ${seconds(started)}\n${error.stack ?? error}\n`);
  process.exitCode = 1;
}
