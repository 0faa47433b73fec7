-- A sign-up let in without a captcha because its strategy is one the captcha trusts
-- (`captcha.oauthBypass`): the provider has still to vouch for the person. Completed any other way (an
-- email code, a phone code, a PATCH), it asks for the captcha then, as every sign-up does (docs/captcha.md).
ALTER TABLE sign_ups ADD COLUMN captcha_deferred boolean NOT NULL DEFAULT false;

-- A newcomer an enterprise IdP vouched for while the instance requires legal consent the person has not
-- given: the sign-in is `transferable` with who the IdP said it was, and the sign-up it is transferred to
-- keeps it until the consent is given and the account made (docs/enterprise-sso.md).
ALTER TABLE sign_ins ADD COLUMN enterprise_identity jsonb;
ALTER TABLE sign_ups ADD COLUMN enterprise_identity jsonb;
