import type { Element, ElementContent } from 'hast';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyToClipboard } from './useCopyToClipboard.ts';

/** The text of a hast subtree: what a fenced code block holds, exactly as written. */
function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** A fenced code block with a copy button; the confirmation shows for COPY_CONFIRMATION_MS. */
export function CodeBlock({ node, children }: { node: Element | undefined; children: ReactNode }) {
  const { t } = useTranslation();
  const { outcome, copy } = useCopyToClipboard();
  const text = node ? textOf(node).replace(/\n$/, '') : '';

  return (
    <div className="code-block" data-testid="code-block">
      <pre>{children}</pre>
      <div className="code-block__toolbar">
        <button
          type="button"
          className="button button--secondary code-block__copy"
          onClick={() => copy(text)}
          aria-label={t('help.copy.label')}
          data-testid="code-copy"
        >
          {t('help.copy.button')}
        </button>
        {/* Always rendered so screen readers announce what appears in it. */}
        <span className="code-block__status" aria-live="polite">
          {outcome === 'copied' && (
            <span className="status--ok" data-testid="code-copied">
              {t('help.copy.copied')}
            </span>
          )}
          {outcome === 'failed' && (
            <span className="status--error" data-testid="code-copy-failed">
              {t('help.copy.failed')}
            </span>
          )}
        </span>
      </div>
    </div>
  );
}
