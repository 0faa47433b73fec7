import type { LocalizationResource } from '@clerk/types';

/**
 * The product's English words for Clerk's screens, laid over @clerk/localizations' enUS: the product's
 * role names (clerk-js shows roles[key], else the name the server sends), and the few strings clerk-js
 * 5.90.0 reads that enUS 3.24.0 lacks.
 */
export const EN_WORDS: LocalizationResource = {
  roles: {
    'org:admin': 'Admin',
    'org:member': 'Member',
    'org:vciso': 'Virtual security officer',
  },
};
