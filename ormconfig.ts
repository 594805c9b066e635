// The DataSource the TypeORM CLI uses (`npm run migration:generate` compares the entities with the database).
// With no DATABASE_URL it points at the checkout's embedded PostgreSQL.
import { DataSource } from 'typeorm';
import { entities } from './apps/api/src/resources.js';
import { dataSourceOptions, embeddedDatabaseOptions, embeddedUrl } from './libs/database/src/index.js';

export default new DataSource({
  ...dataSourceOptions(process.env.DATABASE_URL ?? embeddedUrl(embeddedDatabaseOptions())),
  entities,
});
