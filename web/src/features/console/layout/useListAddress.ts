import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';

/**
 * What a console list keeps in its address: its search (`?query=`), its page (`?offset=`, or the name
 * given where one page holds several lists), and its filters, which a filter form's submit replaces.
 */
export function useListAddress(offsetName = 'offset') {
  const [params, setParams] = useSearchParams();
  const offset = Number(params.get(offsetName)) || 0;
  /** Another page, the rest of the address kept. */
  const setOffset = (next: number) => {
    const copy = new URLSearchParams(params);
    copy.set(offsetName, String(next));
    setParams(copy);
  };
  /** A filter form's submit: its non-empty fields, trimmed, become the address (back to the first page). */
  const submitFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    for (const [name, value] of new FormData(event.currentTarget))
      if (typeof value === 'string' && value.trim()) next[name] = value.trim();
    setParams(next);
  };
  return { params, setParams, search: params.get('query') ?? '', offset, setOffset, submitFilters };
}
