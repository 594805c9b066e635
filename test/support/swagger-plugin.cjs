// The @nestjs/swagger CLI plugin as a ts-jest AST transformer, with the options nest-cli.json gives it,
// so the OpenAPI document built in tests is the one `npm run build` (scripts/build.mjs) produces.
const plugin = require('@nestjs/swagger/plugin');
const nestCli = require('../../nest-cli.json');

const options = nestCli.compilerOptions.plugins.find((entry) => entry.name === '@nestjs/swagger').options;

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (compiler) => plugin.before(options, compiler.program);
