import { useClerk, useSession, useUser } from '@clerk/clerk-react';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useImpersonationActor } from '../features/impersonation/useImpersonationActor.ts';
import { useAuthState } from '../state/auth/AuthStateProvider.tsx';

/** Spec §6: a session with an actor (impersonation) says who is acting as whom, and can be ended. */
export function ImpersonationBanner() {
  if (!useAuthState().actorModeEnabled) return null;
  return <ActiveImpersonationBanner />;
}

function ActiveImpersonationBanner() {
  const { t } = useTranslation();
  const { session } = useSession();
  const { user } = useUser();
  const { signOut } = useClerk();
  const actor = useImpersonationActor(session?.id ?? null);
  const [ending, setEnding] = useState(false);
  const [failed, setFailed] = useState(false);

  const actorLabel = actor
    ? (label(actor.name, actor.email) ?? actor.userId)
    : // Until the product API has named them: the id clerk-js holds.
      String(session?.actor?.sub ?? '');
  const userLabel =
    label(user?.fullName ?? null, user?.primaryEmailAddress?.emailAddress ?? null) ?? user?.id ?? '';

  async function end() {
    if (!session) return;
    setEnding(true);
    setFailed(false);
    try {
      // Signs out of the impersonation session only; the operator's own sessions elsewhere stay.
      await signOut({ sessionId: session.id, redirectUrl: '/' });
    } catch {
      setFailed(true);
      setEnding(false);
    }
  }

  return (
    <section
      className="impersonation-banner"
      aria-label={t('impersonation.label')}
      data-testid="impersonation-banner"
    >
      <p>
        <Trans
          t={t}
          i18nKey="impersonation.message"
          values={{ actor: actorLabel, user: userLabel }}
          components={{
            actor: <strong data-testid="impersonation-actor" />,
            user: <strong data-testid="impersonation-user" />,
          }}
        />
      </p>
      {failed && (
        <p role="alert" className="impersonation-banner__error">
          {t('impersonation.endFailed')}
        </p>
      )}
      <button
        type="button"
        className="button"
        onClick={() => void end()}
        disabled={ending}
        data-testid="end-impersonation"
      >
        {ending ? t('impersonation.ending') : t('impersonation.end')}
      </button>
    </section>
  );
}

/** "Name (address)", or whichever of the two there is. */
function label(name: string | null, email: string | null): string | null {
  if (name && email) return `${name} (${email})`;
  return name || email || null;
}
