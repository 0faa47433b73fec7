import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * zxcvbn-ts set up exactly as clerk-js 5.90.0 sets it up for its strength meter (same versions, the
 * common dictionaries and keyboard graphs, no user inputs), so the provider and the meter the user sees
 * agree on every score.
 */
let configured = false;

export interface StrengthResult {
  score: 0 | 1 | 2 | 3 | 4;
  /** zxcvbn's suggestion keys (e.g. `anotherWord`), which clerk-js localises. */
  suggestions: string[];
}

export function passwordStrength(password: string): StrengthResult {
  if (!configured) {
    zxcvbnOptions.setOptions({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
    configured = true;
  }
  const result = zxcvbn(password);
  return { score: result.score, suggestions: result.feedback.suggestions };
}
