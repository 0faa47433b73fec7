-- Web3 wallets (docs/web3-wallets.md): an Ethereum address that signs in by signing a one-time nonce
-- (EIP-191 personal_sign). Stored EIP-55 checksummed; compared without regard to case. Like a phone
-- number, a wallet is owned once verified: an unverified copy on another account blocks no one.
CREATE TABLE web3_wallets (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  web3_wallet text NOT NULL,
  -- The strategy it was verified with (`web3_metamask_signature` …): <UserProfile/> shows the provider.
  strategy text,
  verified_at timestamptz,
  -- The pending signature verification of a wallet added from the profile (its nonce as `message`).
  verification jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX web3_wallets_verified_key ON web3_wallets (lower(web3_wallet)) WHERE verified_at IS NOT NULL;
CREATE UNIQUE INDEX web3_wallets_user_wallet_key ON web3_wallets (user_id, lower(web3_wallet));

ALTER TABLE users ADD COLUMN primary_web3_wallet_id text;

-- A sign-up may start from a wallet, verified by its signature before the account exists.
ALTER TABLE sign_ups ADD COLUMN web3_wallet text;
ALTER TABLE sign_ups ADD COLUMN web3_wallet_verification jsonb;
