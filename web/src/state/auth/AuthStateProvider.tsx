import { createContext, useContext, useReducer, type Dispatch, type ReactNode } from 'react';
import { authReducer, type AuthEvent } from './reducer.ts';
import { initialAuthState, type AuthState } from './types.ts';
import { useClerkAuthStateSync } from './useClerkAuthStateSync.ts';

const AuthStateContext = createContext<AuthState | null>(null);
const AuthDispatchContext = createContext<Dispatch<AuthEvent> | null>(null);
const AuthInSyncContext = createContext<boolean | null>(null);

/** Holds the auth state and keeps it in step with Clerk; must sit inside ClerkProvider. */
export function AuthStateProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);
  const inSync = useClerkAuthStateSync(dispatch);
  return (
    <AuthDispatchContext value={dispatch}>
      <AuthInSyncContext value={inSync}>
        <AuthStateContext value={state}>{children}</AuthStateContext>
      </AuthInSyncContext>
    </AuthDispatchContext>
  );
}

export function useAuthState(): AuthState {
  const state = useContext(AuthStateContext);
  if (!state) throw new Error('useAuthState must be used inside <AuthStateProvider>.');
  return state;
}

export function useAuthDispatch(): Dispatch<AuthEvent> {
  const dispatch = useContext(AuthDispatchContext);
  if (!dispatch) throw new Error('useAuthDispatch must be used inside <AuthStateProvider>.');
  return dispatch;
}

/** True when the auth state reflects Clerk as of this render (see useClerkAuthStateSync). */
export function useAuthStateInSync(): boolean {
  const inSync = useContext(AuthInSyncContext);
  if (inSync === null) throw new Error('useAuthStateInSync must be used inside <AuthStateProvider>.');
  return inSync;
}
