import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock.tsx';
import { linkTarget } from './link-target.ts';

function MarkdownLink({ href, children }: { href?: string; children?: ReactNode }) {
  const target = linkTarget(href);
  switch (target.kind) {
    case 'app':
      return <Link to={target.to}>{children}</Link>;
    case 'external':
      return (
        <a href={target.href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    case 'plain':
      return <a href={target.href}>{children}</a>;
    case 'none':
      return <span>{children}</span>;
  }
}

const components: Components = {
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
  // Wide tables scroll on their own instead of widening the page.
  table: ({ node: _node, ...props }) => (
    <div className="markdown__table">
      <table {...props} />
    </div>
  ),
};

const remarkPlugins = [remarkGfm];
const NO_TITLE = ['h1'];

/**
 * Help markdown, GitHub-flavoured (tables, fenced code, task lists), rendered safely: raw HTML is
 * skipped rather than injected (no rehype-raw), and react-markdown's default URL sanitising stays on,
 * so `javascript:` and other unsafe addresses are dropped. `withoutTitle` leaves out the page's own
 * `# title` where the surrounding page already shows one.
 */
export function MarkdownViewer({
  markdown,
  withoutTitle = false,
}: {
  markdown: string;
  withoutTitle?: boolean;
}) {
  return (
    <div className="markdown" data-testid="markdown">
      <Markdown
        remarkPlugins={remarkPlugins}
        components={components}
        skipHtml
        {...(withoutTitle ? { disallowedElements: NO_TITLE } : {})}
      >
        {markdown}
      </Markdown>
    </div>
  );
}
