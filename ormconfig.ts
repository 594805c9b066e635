// A DataSource for the TypeORM CLI (e.g. `npx typeorm migration:show -d dist/ormconfig.js`), with the entities and
// the migrations. With no DATABASE_URL it points at the checkout's embedded PostgreSQL. The project's own commands
// (`npm run migration:run | migration:revert | migration:create`) do not need it.
import { DataSource } from 'typeorm';
import { entities } from './apps/api/src/resources.js';
import { loadConfig } from './libs/common/src/index.js';
import { dataSourceOptions, embeddedDatabaseOptions, embeddedUrl } from './libs/database/src/index.js';

const config = loadConfig();

export default new DataSource({
  ...dataSourceOptions(config.DATABASE_URL ?? embeddedUrl(embeddedDatabaseOptions(config))),
  entities,
});
