import { z } from 'zod';

// Zod compiles a fast parser for each object schema with `new Function`, deciding so when the
// schema is built; under the page's strict CSP the probe for it is reported as a violation even
// though Zod catches it. The shared contracts build their schemas as they load, so this runs
// before anything else the page imports (main.tsx imports it first). Interpreted parsing is
// plenty for forms.
z.config({ jitless: true });
