/** Clerk wants an icon beside every custom entry of the account menu: a key, drawn inline. */
export function AuthorizedApplicationsIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor">
      <circle cx="5" cy="8" r="3" strokeWidth="1.5" />
      <path d="M8 8h7M12 8v3M14 8v2" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}
