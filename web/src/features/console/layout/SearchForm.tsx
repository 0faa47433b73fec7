import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** A search box whose submitted text the page keeps in its address (`?query=`). */
export function SearchForm({
  initial,
  label,
  testId,
  onSearch,
}: {
  initial: string;
  label: string;
  testId: string;
  onSearch: (text: string) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="console__search" role="search" onSubmit={submit}>
      <label>
        <span>{label}</span>
        <input
          type="search"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
          data-testid={`${testId}-input`}
        />
      </label>
      <button type="submit" className="button" data-testid={`${testId}-submit`}>
        {t('console.search')}
      </button>
    </form>
  );
}
