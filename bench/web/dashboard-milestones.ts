/**
 * What the dashboard shows as it loads, in order, each by an element that exists only from then on.
 * The headline is the organisation's name: it needs clerk-js loaded, the session restored with its active
 * organisation and our signed-in route rendered (clerk-js's copy of the organisation stands in until the
 * product API answers, web/src/features/organizations/useCurrentOrganization.ts).
 */
export const MILESTONES = [
  {
    key: 'dashboard',
    label: 'dashboard shell (Clerk loaded, signed in)',
    selector: '[data-testid="dashboard"]',
  },
  {
    key: 'organization',
    label: 'organisation name shown (headline)',
    selector: '[data-testid="dashboard-org-name"]',
  },
  { key: 'userButton', label: "Clerk's UserButton", selector: '.cl-userButtonTrigger' },
] as const;

export type MilestoneKey = (typeof MILESTONES)[number]['key'];

export const MARKS_GLOBAL = '__benchDashboardMarks';

/**
 * Runs in every page before its scripts. When an element first enters the DOM it records the start of
 * the next animation frame (the frame that paints it) in ms since navigation start (performance.now()'s
 * origin), with no polling from outside to add its own delay. Kept as a string so the page gets exactly
 * this code and nothing the TypeScript loader adds.
 */
export const MILESTONE_OBSERVER = `(() => {
  const selectors = ${JSON.stringify(Object.fromEntries(MILESTONES.map((m) => [m.key, m.selector])))};
  const marks = {};
  Object.defineProperty(window, ${JSON.stringify(MARKS_GLOBAL)}, { value: marks });
  const check = () => {
    for (const key of Object.keys(selectors)) {
      if (!(key in marks) && document.querySelector(selectors[key])) {
        marks[key] = null;
        requestAnimationFrame(() => { marks[key] = performance.now(); });
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;
