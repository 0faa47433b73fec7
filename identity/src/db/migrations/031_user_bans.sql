-- An operator's ban (Backend API `users.banUser`): the user cannot sign in by any strategy, and their
-- sessions were revoked when the ban was set. Lifted by `users.unbanUser`.
ALTER TABLE users ADD COLUMN banned boolean NOT NULL DEFAULT false;
