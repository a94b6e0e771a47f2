/**
 * `instanceof` for classes more than one bundle carries. The chat (`dist/chat.js`) and the agent
 * connection (`dist/connection.js`) are separate bundles (esbuild.mjs), each with its own copy of
 * what both import — `AgentError`, the ports' errors — so a plain `instanceof` says false for an
 * object the other copy made. A class that crosses bundles declares its own `static readonly brand`
 * and a `static [Symbol.hasInstance]` that calls this: an object is an instance when a class on its
 * prototype chain has the same brand, whichever copy made it.
 */
export function isBrandedInstance(cls: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  if (!Object.hasOwn(cls, 'brand')) {
    // A subclass without a brand of its own (made and checked in one bundle): the ordinary check.
    return Function.prototype[Symbol.hasInstance].call(cls, value);
  }
  const brand = (cls as unknown as Branded).brand;
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
    return false;
  }
  for (let proto: unknown = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
    const constructor = Object.hasOwn(proto, 'constructor') ? (proto as Branded).constructor : undefined;
    if (typeof constructor === 'function' && Object.hasOwn(constructor, 'brand')) {
      if ((constructor as unknown as Branded).brand === brand) {
        return true;
      }
    }
  }
  return false;
}

interface Branded {
  readonly brand: string;
  readonly constructor: unknown;
}
