import type { OrganizationProfileTheme } from '@clerk/types';

/**
 * Spec §6: in the organization profile the role selector's first option is hidden.
 *
 * clerk-js 5.90.0 renders every role selector of the profile (members table and invite form) as its
 * `<Select elementId='role'>`: an options container with the element key `selectOptionsContainer__role`
 * (class `cl-selectOptionsContainer__role`), holding one undecorated wrapper per option around the
 * option itself (`cl-selectOption__role`), in the order of `organization.getRoles()`. The rule hides the
 * whole wrapper of the first option, so it takes no space and cannot be clicked.
 */
export const organizationProfileAppearance = {
  elements: {
    selectOptionsContainer__role: {
      '& div:has(> .cl-selectOption__role):first-child': { display: 'none' },
    },
  },
} satisfies OrganizationProfileTheme;
