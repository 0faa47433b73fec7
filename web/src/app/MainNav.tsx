import { NavLink } from 'react-router';
import { useAuthState } from '../state/auth/AuthStateProvider.tsx';
import { selectHasAdminRights } from '../state/auth/selectors.ts';

/** The signed-in sections; members management only shows for users with admin rights. */
export function MainNav() {
  const auth = useAuthState();
  if (!auth.organization) return null;
  return (
    <nav className="main-nav" aria-label="Main">
      <NavLink to="/dashboard" className="main-nav__link" data-testid="nav-dashboard">
        Dashboard
      </NavLink>
      <NavLink to="/organization" className="main-nav__link" data-testid="nav-organization">
        Organisation
      </NavLink>
      <NavLink to="/settings" className="main-nav__link" data-testid="nav-settings">
        Settings
      </NavLink>
      {selectHasAdminRights(auth) && (
        <NavLink to="/members" className="main-nav__link" data-testid="nav-members">
          Members
        </NavLink>
      )}
    </nav>
  );
}
