/** Clerk wants an icon beside every custom entry of the account menu: a pulse line, drawn inline. */
export function DiagnosticsIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor">
      <path d="M1 8h3l2-5 4 10 2-5h3" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
