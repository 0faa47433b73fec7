import type { Language } from '../../lib/i18n/languages.ts';

/**
 * The interface language, kept as the user's own in Clerk's unsafe metadata (`uiLanguage`, which the user
 * may write from the browser): the identity provider writes the user's codes, links and SMS in it,
 * whatever their browser's Accept-Language says (docs/mail-language.md). A sign-up carries it in its
 * `unsafeMetadata`, which becomes the user's.
 */
export const languageMetadata = (language: Language) => ({ uiLanguage: language });

interface UserWithMetadata {
  unsafeMetadata: Record<string, unknown>;
  update(params: { unsafeMetadata: Record<string, unknown> }): Promise<unknown>;
}

/**
 * Records `language` as the signed-in user's choice, keeping the rest of their unsafe metadata. Nothing is
 * sent when it is recorded already; a refusal (an operator impersonating the user may not write) leaves the
 * mail following the browser, and the interface switches all the same.
 */
export async function rememberUserLanguage(user: UserWithMetadata, language: Language): Promise<void> {
  if (user.unsafeMetadata.uiLanguage === language) return;
  try {
    await user.update({ unsafeMetadata: { ...user.unsafeMetadata, ...languageMetadata(language) } });
  } catch {
    // See above: the choice still holds in this browser.
  }
}
