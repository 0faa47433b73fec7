import type { SelectHTMLAttributes } from 'react';

export interface FilterChoice {
  value: string;
  label: string;
}

/**
 * One filter of a console list: a labelled select whose first, empty choice means "any"; the rest of
 * its props go to the select (a `name` for a submitted form, or a `value` and `onChange`).
 */
export function FilterSelect({
  label,
  anyLabel,
  choices,
  ...select
}: {
  label: string;
  anyLabel: string;
  choices: readonly FilterChoice[];
  'data-testid'?: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <label>
      <span>{label}</span>
      <select {...select}>
        <option value="">{anyLabel}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
