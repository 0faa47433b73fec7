import type { ReactNode } from 'react';

/** The one neutral "please wait" used everywhere, so slow steps look alike and are announced alike. */
export function Loading({ children = 'Loading…', testId }: { children?: ReactNode; testId?: string }) {
  return (
    <p className="loading" role="status" data-testid={testId}>
      <span className="loading__spinner" aria-hidden="true" />
      {children}
    </p>
  );
}
