/** The same-origin scripts and stylesheets an HTML document loads (`<script src>`, `<link rel=stylesheet|modulepreload>`). */
export function pageAssets(html: string): string[] {
  const assets = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isLink = /^<link/i.test(tag);
    if (isLink && !/\brel=["']?(stylesheet|modulepreload)\b/i.test(tag)) continue;
    const url = tag.match(isLink ? /\bhref=["']([^"']+)["']/i : /\bsrc=["']([^"']+)["']/i)?.[1];
    if (url && url.startsWith('/') && !url.startsWith('//')) assets.add(url);
  }
  return [...assets];
}
