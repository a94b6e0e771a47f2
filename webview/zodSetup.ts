import * as z from 'zod/mini';

// zod probes `new Function` (when object schemas are built) to speed up parsing; under the
// webview's CSP that probe is reported as a violation. Interpreted parsing is fast enough for our
// messages. Imported first by main.ts, so it runs before any schema module is evaluated.
z.config({ jitless: true });
