// The DataSource the TypeORM CLI uses (`npm run migration:generate` compares the entities with the database).
// With no DATABASE_URL it points at the checkout's embedded PostgreSQL.
import { DataSource } from 'typeorm';
import { entities } from './apps/api/src/resources.js';
import { loadConfig } from './libs/common/src/index.js';
import { dataSourceOptions, embeddedDatabaseOptions, embeddedUrl } from './libs/database/src/index.js';

const config = loadConfig();

export default new DataSource({
  ...dataSourceOptions(config.DATABASE_URL ?? embeddedUrl(embeddedDatabaseOptions(config))),
  entities,
});
