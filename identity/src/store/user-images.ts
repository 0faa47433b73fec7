import type { Queryable } from '../db/database.ts';
import type { ImageFile } from '../images/image-file.ts';
import { newId } from '../ids.ts';

/** Stores the user's profile image under a new id (so its URL changes); returns that id. */
export async function setUserImage(
  db: Queryable,
  userId: string,
  image: ImageFile,
  now: Date,
): Promise<string> {
  const id = newId('img');
  await db.query(
    `INSERT INTO user_images (user_id, id, data, type, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET id = EXCLUDED.id, data = EXCLUDED.data, type = EXCLUDED.type,
       created_at = EXCLUDED.created_at`,
    [userId, id, image.data, image.type, now],
  );
  await db.query('UPDATE users SET image_id = $2, updated_at = $3 WHERE id = $1', [userId, id, now]);
  return id;
}

/** Removes the profile image; the id it had, or null when there was none. */
export async function removeUserImage(db: Queryable, userId: string, now: Date): Promise<string | null> {
  const [row] = await db.query<{ id: string }>('DELETE FROM user_images WHERE user_id = $1 RETURNING id', [
    userId,
  ]);
  if (!row) return null;
  await db.query('UPDATE users SET image_id = NULL, updated_at = $2 WHERE id = $1', [userId, now]);
  return row.id;
}

export async function userImage(db: Queryable, userId: string): Promise<ImageFile | null> {
  const [row] = await db.query<{ data: Uint8Array; type: string }>(
    'SELECT data, type FROM user_images WHERE user_id = $1',
    [userId],
  );
  return row ? { data: Buffer.from(row.data), type: row.type } : null;
}
