/**
 * A section's title inside <UserProfile/> and <OrganizationProfile/>: clerk-js 5.90.0 writes it as an
 * `h1` styled as a second-level heading, under the navigation's own `h1` (the profile's name), so a page
 * showing a profile had two level-one headings (issue #29 asks for one per page).
 */
const SECTION_TITLE =
  '.cl-userProfile-root h1.cl-headerTitle, .cl-organizationProfile-root h1.cl-headerTitle';

const demote = (heading: Element) => {
  if (heading.getAttribute('aria-level') !== '2') heading.setAttribute('aria-level', '2');
};

/**
 * Gives those section titles `aria-level="2"` (the level they look), which assistive technology reads
 * instead of the tag's; clerk-js is not patched, so the tag stays `h1`. Looks only at added subtrees,
 * through the browser's selector; returns the function that stops it.
 */
export function demoteClerkSectionHeadings(): () => void {
  const scan = (root: Element) => {
    if (root.matches(SECTION_TITLE)) demote(root);
    for (const heading of root.querySelectorAll(SECTION_TITLE)) demote(heading);
  };
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof Element) scan(node);
  });
  scan(document.body);
  observer.observe(document.body, { subtree: true, childList: true });
  return () => observer.disconnect();
}
