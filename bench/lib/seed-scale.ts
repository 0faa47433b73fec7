import { openDatabase, migrate, type Database, type DatabaseOptions } from '@app/identity';

/** How many rows the scale run puts in the identity database before anything is measured. */
export interface ScaleSize {
  users: number;
  organizations: number;
  sessions: number;
}

/** The figure: the hot paths must hold with a database of a real instance's size. */
export const SCALE: ScaleSize = { users: 100_000, organizations: 10_000, sessions: 1_000_000 };

/** Rows written per statement: large enough to be quick, small enough for PGlite's memory. */
const BATCH = 100_000;

/**
 * Fills an identity database with `size` rows of users (each with a verified email address and one
 * membership), organisations and sessions (each on a browser of its own; one in ten still active), the
 * shape of a real instance, so that a query without an index shows. The rows are written by SQL
 * (generate_series) rather than through the API: a million sign-ins would take hours and measure
 * nothing more. No password hashes: nobody signs in as these users. Ids are prefixed `seed` so they
 * never meet the ids the bench's own users get.
 */
export async function seedScale(db: Database, size: ScaleSize = SCALE): Promise<void> {
  await migrate(db);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO organizations (id, name, slug, created_at, updated_at)
       SELECT 'org_seed' || n, 'Seed organisation ' || n, 'seed-org-' || n, now(), now()
         FROM generate_series(1, $1::int) AS n`,
      [size.organizations],
    );
  });
  for (let from = 1; from <= size.users; from += BATCH) {
    const to = Math.min(size.users, from + BATCH - 1);
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO users (id, first_name, last_name, primary_email_address_id, created_at, updated_at)
         SELECT 'user_seed' || n, 'Seed', 'User ' || n, 'idn_seed' || n, now(), now()
           FROM generate_series($1::int, $2::int) AS n`,
        [from, to],
      );
      await tx.query(
        `INSERT INTO email_addresses (id, user_id, email_address, verified_at, verification_strategy)
         SELECT 'idn_seed' || n, 'user_seed' || n, 'seed-' || n || '@example.com', now(), 'email_code'
           FROM generate_series($1::int, $2::int) AS n`,
        [from, to],
      );
      await tx.query(
        `INSERT INTO organization_memberships (id, organization_id, user_id, role)
         SELECT 'orgmem_seed' || n, 'org_seed' || (1 + n % $3::int), 'user_seed' || n,
                CASE WHEN n <= $3::int THEN 'org:admin' ELSE 'org:member' END
           FROM generate_series($1::int, $2::int) AS n`,
        [from, to, size.organizations],
      );
    });
  }
  for (let from = 1; from <= size.sessions; from += BATCH) {
    const to = Math.min(size.sessions, from + BATCH - 1);
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO clients (id, token_hash, created_at, updated_at)
         SELECT 'client_seed' || n, md5('seed' || n) || md5('client' || n), now(), now()
           FROM generate_series($1::int, $2::int) AS n`,
        [from, to],
      );
      // One session in ten is still active; the others ended, as most of a real instance's have.
      await tx.query(
        `INSERT INTO sessions (id, client_id, user_id, status, last_active_organization_id, expire_at, abandon_at)
         SELECT 'sess_seed' || n, 'client_seed' || n, 'user_seed' || (1 + n % $3::int),
                CASE WHEN n % 10 = 0 THEN 'active' ELSE 'ended' END,
                'org_seed' || (1 + (1 + n % $3::int) % $4::int),
                now() + interval '7 days', now() + interval '30 days'
           FROM generate_series($1::int, $2::int) AS n`,
        [from, to, size.users, size.organizations],
      );
    });
  }
  // Fresh statistics, as autovacuum would have by the time an instance has this many rows.
  await db.query('ANALYZE');
}

/** Seeds the identity database a product server is about to open (it must not be open yet: PGlite). */
export async function seedDatabase(options: DatabaseOptions, size: ScaleSize = SCALE): Promise<void> {
  const db = await openDatabase(options);
  try {
    await seedScale(db, size);
  } finally {
    await db.close();
  }
}
