import * as z from 'zod/mini';

/**
 * zod/mini brings no messages of its own (full zod sets English when its first schema is made):
 * imported by the schemas whose messages reach people — a setting's problem, why an agent's form
 * was refused — so that they read as they did with full zod.
 */
z.config(z.locales.en());
