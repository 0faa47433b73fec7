/** The French words that elide before a vowel sound: "de Acme" is written "d'Acme", "le Hôtel" "l'Hôtel". */
export type ElidingWord = 'de' | 'le' | 'la' | 'que';

const VOWEL = 'aeiouàâäéèêëîïôöùûüæœ';

/**
 * Whether a name begins with a vowel sound as far as spelling tells: a vowel; an `h` before a vowel (most
 * names have a mute h: "d'Hélène", "d'Hermès"); a `y` before a consonant ("d'Yves", but "de Yann").
 * Anything else (a consonant, a digit, a quote) keeps the full word.
 */
export function startsWithVowelSound(name: string): boolean {
  const [first, second] = [...name.trimStart().toLowerCase()];
  const vowel = (letter: string | undefined) => letter !== undefined && VOWEL.includes(letter);
  if (vowel(first)) return true;
  if (first === 'h') return vowel(second) || second === 'y';
  if (first === 'y') return second !== undefined && /\p{L}/u.test(second) && !vowel(second);
  return false;
}

/** `word` followed by `name`, elided when the name begins with a vowel sound: `d'Acme`, `de Zurich`. */
export function elide(word: ElidingWord, name: string): string {
  const trimmed = name.trimStart();
  return startsWithVowelSound(trimmed) ? `${word.slice(0, -1)}'${trimmed}` : `${word} ${trimmed}`;
}

/**
 * The i18next formats for French texts: `{{name, de}}` renders "de Zurich" or "d'Acme" (create-i18n adds
 * them). Only the French file uses them; English says "{{name}}'s role".
 */
export const ELISION_FORMATS: readonly ElidingWord[] = ['de', 'le', 'la', 'que'];
