import { MODULES } from '../modules/modules.ts';

const modules = MODULES.map((module) => module.label);

/** States plainly what does not exist yet, instead of showing placeholders that look like features. */
export function ComingNext() {
  return (
    <section className="card" aria-labelledby="coming-next-heading" data-testid="coming-next">
      <h2 id="coming-next-heading">Coming next</h2>
      <p>
        This version covers your account and your organisations: their members, invitations and roles. These
        parts are not built yet:
      </p>
      <ul className="coming-next">
        <li>
          <strong>The five modules' own screens</strong> ({modules.join(', ')}); for now you can see which
          ones your organisation has switched on.
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
