/**
 * Whether JSON text nests arrays and objects deeper than `max`, found by one linear pass over the text
 * (brackets outside strings), before anything is parsed: `JSON.parse` of `[[[[…]]]]` a megabyte deep
 * costs far more than reading it, and `checkJson` after it would come too late. Malformed text is left
 * to `JSON.parse`; this only counts.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
