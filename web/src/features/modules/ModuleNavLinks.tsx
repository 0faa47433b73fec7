import { NavLink } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { enabledModules, modulePath } from './modules.ts';
import { useModuleTexts } from './useModuleTexts.ts';

/**
 * A link per module enabled for the active organisation. It reads the auth state, so saving the
 * settings (which merges the new metadata into it) adds or removes links at once.
 */
export function ModuleNavLinks() {
  const metadata = useAuthState().organization?.publicMetadata;
  const texts = useModuleTexts();
  return enabledModules(metadata).map((module) => (
    <NavLink
      key={module.key}
      to={modulePath(module)}
      className="main-nav__link"
      data-testid={`nav-module-${module.key}`}
    >
      {texts[module.key].navName}
    </NavLink>
  ));
}
