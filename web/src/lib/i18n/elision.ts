/**
 * The French words that elide before a vowel sound ("de Acme" is written "d'Acme", "le Hôtel" "l'Hôtel"),
 * and "à", which never elides but, like "de", contracts with a name's leading article ("au Cabinet
 * Martin", "aux Experts", "du Cabinet Martin").
 */
export type ElidingWord = 'de' | 'le' | 'la' | 'que' | 'à';

/** "à le" and "à les", "de le" and "de les", as French writes them. */
const CONTRACTIONS: Partial<Record<ElidingWord, { le: string; les: string }>> = {
  de: { le: 'du', les: 'des' },
  à: { le: 'au', les: 'aux' },
};

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

/**
 * `word` followed by `name`: elided when the name begins with a vowel sound (`d'Acme`, `de Zurich`);
 * contracted with a leading "Le" or "Les" (`du Cabinet`, `au Cabinet`, `aux Experts`, but `à La Poste`).
 */
export function elide(word: ElidingWord, name: string): string {
  const trimmed = name.trimStart();
  const contraction = CONTRACTIONS[word];
  const article = /^(les?) (?=\S)/i.exec(trimmed);
  if (contraction && article) {
    const contracted = article[1]!.toLowerCase() === 'le' ? contraction.le : contraction.les;
    return `${contracted} ${trimmed.slice(article[0].length)}`;
  }
  if (word === 'à') return `à ${trimmed}`;
  return startsWithVowelSound(trimmed) ? `${word.slice(0, -1)}'${trimmed}` : `${word} ${trimmed}`;
}

/**
 * The i18next formats for French texts: `{{name, de}}` renders "de Zurich" or "d'Acme", `{{name, à}}`
 * "à Acme" or "au Cabinet Martin" (create-i18n adds them). Only the French file uses them; English says
 * "{{name}}'s role".
 */
export const ELISION_FORMATS: readonly ElidingWord[] = ['de', 'le', 'la', 'que', 'à'];
