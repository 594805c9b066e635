// Compiles apps/ and libs/ to dist/ as `nest build` (tsc builder) does: TypeScript with the @nestjs/swagger
// plugin (its options from nest-cli.json, shared with the Jest transformer) and `@app/*` aliases rewritten to
// relative paths. @nestjs/cli 12 requires Node 22 and 11 rewrites aliases to `.ts` files under `nodenext`, so
// the project drives the compiler itself; it is the one build used by `npm start`, the CLI and the tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');
const swaggerPlugin = require('@nestjs/swagger/plugin');
const nestCli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
const pluginOptions = nestCli.compilerOptions.plugins.find((entry) => entry.name === '@nestjs/swagger').options;

const configPath = join(root, 'tsconfig.build.json');
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
if (error) fail([error]);
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
if (parsed.errors.length > 0) fail(parsed.errors);

/** `@app/common` → the file its `paths` entry names, as a specifier relative to the importing file. */
const aliases = Object.entries(parsed.options.paths ?? {}).map(([alias, [target]]) => [
  alias,
  join(parsed.options.pathsBasePath ?? root, target).replace(/\.ts$/, '.js'),
]);

function rewriteAliases(context) {
  const { factory } = context;
  return (sourceFile) => {
    const specifierFor = (text) => {
      const target = aliases.find(([alias]) => alias === text)?.[1];
      if (!target) return undefined;
      const path = relative(dirname(sourceFile.fileName), target).replaceAll('\\', '/');
      return factory.createStringLiteral(path.startsWith('.') ? path : `./${path}`);
    };
    const visit = (node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const specifier = specifierFor(node.moduleSpecifier.text);
        if (specifier && ts.isImportDeclaration(node))
          return factory.updateImportDeclaration(node, node.modifiers, node.importClause, specifier, node.attributes);
        if (specifier)
          return factory.updateExportDeclaration(
            node,
            node.modifiers,
            node.isTypeOnly,
            node.exportClause,
            specifier,
            node.attributes,
          );
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitNode(sourceFile, visit);
  };
}

const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const result = program.emit(undefined, undefined, undefined, false, {
  before: [swaggerPlugin.before(pluginOptions, program)],
  after: [rewriteAliases],
});
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
if (diagnostics.length > 0 || result.emitSkipped) fail(diagnostics);

function fail(problems) {
  process.stderr.write(
    ts.formatDiagnosticsWithColorAndContext(problems, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    }),
  );
  process.exit(1);
}
