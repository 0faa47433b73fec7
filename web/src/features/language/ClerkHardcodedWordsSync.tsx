import { useEffect } from 'react';
import { CLERK_ATTRIBUTE_FR, CLERK_TEXT_FR } from '../../app/clerk-words/hardcoded-fr.ts';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { relabelClerk } from './relabel-clerk.ts';

/**
 * While the interface is French, gives French words to what clerk-js writes in English in every
 * language, and French forms to its American prices and dates (docs/languages.md); switching to
 * English puts clerk-js's own back.
 */
export function ClerkHardcodedWordsSync() {
  const { language } = useLanguage();
  useEffect(
    () => (language === 'FR' ? relabelClerk(CLERK_ATTRIBUTE_FR, CLERK_TEXT_FR, true) : undefined),
    [language],
  );
  return null;
}
