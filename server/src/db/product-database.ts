import { fileURLToPath } from 'node:url';
import { openDatabase, runMigrations, type Database, type MigrationSet } from '@app/identity';
import type { ProductDatabaseOptions } from '../config.ts';

/** The product's migrations: its own folder, its own record and its own advisory lock key. */
export const PRODUCT_MIGRATIONS: MigrationSet = {
  dir: fileURLToPath(new URL('./migrations/', import.meta.url)),
  table: 'product_migrations',
  lockKey: 7261533,
};

/** Opens the product's database (PostgreSQL schema or PGlite directory) and applies its migrations. */
export async function openProductDatabase(options: ProductDatabaseOptions): Promise<Database> {
  const db = await openDatabase(options);
  try {
    await runMigrations(db, PRODUCT_MIGRATIONS);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
