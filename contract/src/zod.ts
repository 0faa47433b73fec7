import { z } from 'zod';

// The web's Content-Security-Policy has no 'unsafe-eval'. zod compiles object parsers with `new Function`
// after probing whether eval is allowed, and the browser reports that probe as a CSP violation even though
// zod catches it. Interpreted parsing is plenty for answers of this size, so the compiler is switched off
// here, before any schema is built (zod reads the setting when a schema is created). Every contract file
// imports z from this module, never from 'zod' directly.
z.config({ jitless: true });

export { z };
