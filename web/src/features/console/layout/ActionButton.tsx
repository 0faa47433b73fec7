import type { ReactNode } from 'react';

const CLASS_NAMES = {
  primary: 'button',
  secondary: 'button button--secondary',
  danger: 'button button--danger',
} as const;

/**
 * A console action's button (in a table's row or on its own), off while an action runs. With `confirm`,
 * it asks that question first and does nothing unless the operator agrees.
 */
export function ActionButton({
  kind = 'primary',
  pending,
  confirm,
  onClick,
  testId,
  children,
}: {
  kind?: keyof typeof CLASS_NAMES;
  pending: boolean;
  confirm?: string;
  onClick: () => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={CLASS_NAMES[kind]}
      disabled={pending}
      onClick={() => {
        if (confirm === undefined || window.confirm(confirm)) onClick();
      }}
      data-testid={testId}
    >
      {children}
    </button>
  );
}
