/**
 * markdown-it's named-entity decoder (`entities`' `decodeHTMLStrict`), done by the browser's own
 * HTML parser: it knows every entity, so the 20 KiB entity table is left out of the bundle
 * (esbuild.mjs points markdown-it's `entities` import here).
 */
let decoder: HTMLTextAreaElement | undefined;

const NAMED_ENTITY = /^&[a-z][a-z0-9]{1,31};$/i;

/** Decodes one named character reference such as `&copy;`; anything else comes back unchanged. */
export function decodeHTMLStrict(entity: string): string {
  if (!NAMED_ENTITY.test(entity)) {
    return entity;
  }
  decoder ??= document.createElement('textarea');
  // A textarea's content is RCDATA: only character references are decoded, no element is made.
  decoder.innerHTML = entity;
  const decoded = decoder.value;
  // A named entity is one or two code points. The parser also expands a known prefix without its
  // semicolon (`&ampx;` → `&x;`), which a strict decoder does not: keep those as written.
  return [...decoded].length <= 2 ? decoded : entity;
}
