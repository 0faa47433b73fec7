const modules = ['Virtual security officer', 'Compliance', 'Companion', 'Diagram', 'Passport'];

/** States plainly what does not exist yet, instead of showing placeholders that look like features. */
export function ComingNext() {
  return (
    <section className="card" aria-labelledby="coming-next-heading" data-testid="coming-next">
      <h2 id="coming-next-heading">Coming next</h2>
      <p>
        This first version covers your account: signing up, signing in and signing out. These parts are not
        built yet:
      </p>
      <ul className="coming-next">
        <li>
          <strong>Organisations and roles</strong>: create an organisation, invite people and give them roles.
        </li>
        <li>
          <strong>The five modules</strong>, switched on per organisation: {modules.join(', ')}.
        </li>
        <li>
          <strong>Languages</strong>: the whole product in English and French.
        </li>
        <li>
          <strong>Help centre</strong>: guides and answers for every module.
        </li>
      </ul>
    </section>
  );
}
