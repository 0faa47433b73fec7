import type { Queryable } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { findUserById } from '../../store/users.ts';
import type { UserRow } from '../../store/rows.ts';

/** The user a Backend API route names in its path, or Clerk's 404 `resource_not_found` for `user`. */
export async function requireUser(db: Queryable, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw errors.notFound('user');
  return user;
}
