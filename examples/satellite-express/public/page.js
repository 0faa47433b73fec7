// The page's only script: clerk-js (loaded just before, from this origin) as a satellite, and the sign-out
// button. The server rendered who it saw; when clerk-js learns otherwise (signed out on the product, or
// another organisation made active there), the page is loaded again, with a fresh session cookie, so that
// the server looks again.
const { userId, orgId, signInUrl } = document.body.dataset;
const RELOADED_KEY = 'satellite-reloaded-at';

async function start() {
  const clerk = window.Clerk;
  await clerk.load({ isSatellite: true, signInUrl });
  clerk.addListener(async ({ user, organization, session }) => {
    if ((user?.id ?? '') === userId && (organization?.id ?? '') === orgId) return;
    // Once in a few seconds at most: a disagreement that a reload does not settle must not loop.
    const last = Number(sessionStorage.getItem(RELOADED_KEY) ?? 0);
    if (Date.now() - last < 5000) return;
    sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
    // clerk-js writes the new token into this origin's __session cookie, which the server reads.
    if (session) await session.getToken({ skipCache: true });
    location.reload();
  });
  // Signing in happens on the product's <SignIn/>; clerk-js adds this page as its redirect_url, so the
  // browser comes back here once signed in (the product allows the satellite's origin as a redirect).
  const signIn = document.getElementById('sign-in');
  if (signIn) {
    signIn.addEventListener('click', (event) => {
      event.preventDefault();
      void clerk.redirectToSignIn();
    });
  }
  const signOut = document.getElementById('sign-out');
  if (signOut) {
    signOut.disabled = false;
    signOut.addEventListener('click', () => {
      signOut.disabled = true;
      void clerk.signOut({ redirectUrl: location.href });
    });
  }
  document.body.dataset.clerkLoaded = 'true';
}

void start();
