/** The one way a failed read is shown: what failed, why, and a way to try again. */
export function LoadError({
  what,
  message,
  testId,
  onRetry,
}: {
  what: string;
  message: string;
  testId: string;
  onRetry: () => void;
}) {
  return (
    <div className="status status--error" role="alert">
      <p>{what} could not be loaded:</p>
      <p data-testid={testId}>{message}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
