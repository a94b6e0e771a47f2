import type { Locator } from 'playwright-core';

/**
 * WCAG 2.x contrast, computed from what the page really paints with the theme's colours: an element's
 * computed colour, composited (alpha included) over the backgrounds of the element and its ancestors,
 * down to the page's own background (what VS Code gives a webview: the sidebar's colour).
 */

/** An sRGB colour, channels 0–255, alpha 0–1. */
export type Rgba = readonly [number, number, number, number];

/** What an element shows: its text (or one part of it) and the colours beside it. */
export interface Painted {
  /** The text colour, or the border's, composited over what is under it. */
  readonly foreground: Rgba;
  /** What it sits on: the element's background composited over its ancestors'. */
  readonly background: Rgba;
  /** For a border: what lies just outside it (the parent's background). */
  readonly outside?: Rgba;
}

export type Part = 'text' | 'placeholder' | 'border';

/** The colours of `part` of the first element `locator` finds. */
export async function painted(locator: Locator, part: Part): Promise<Painted> {
  // Only computed strings come out of the page; they are read and composited here.
  const seen = await locator.first().evaluate((element, which) => {
    const backgrounds: string[] = [];
    let opacity = 1;
    for (let at: Element | null = element; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      backgrounds.unshift(style.backgroundColor);
      opacity *= Number(style.opacity);
    }
    const own =
      which === 'placeholder' ? getComputedStyle(element, '::placeholder') : getComputedStyle(element);
    return { colour: which === 'border' ? own.borderTopColor : own.color, backgrounds, opacity };
  }, part);
  const background = seen.backgrounds.reduce<Rgba>(
    (under, colour) => over(parseColour(colour), under),
    WHITE,
  );
  const colour = parseColour(seen.colour);
  if (part === 'border') {
    const outside = seen.backgrounds
      .slice(0, -1)
      .reduce<Rgba>((under, value) => over(parseColour(value), under), WHITE);
    return { foreground: over(colour, background), background, outside };
  }
  // Opacity on the element or an ancestor fades its text into what is under it.
  const faded: Rgba = [colour[0], colour[1], colour[2], colour[3] * seen.opacity];
  return { foreground: over(faded, background), background };
}

const WHITE: Rgba = [255, 255, 255, 1];

/** A computed colour: rgb()/rgba(), or color(srgb r g b / a) as Chromium gives color-mix() results. */
function parseColour(value: string): Rgba {
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(value);
  if (srgb) {
    return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, Number(srgb[4] ?? 1)];
  }
  const rgb = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+))?\)$/.exec(value);
  if (!rgb) {
    throw new Error(`cannot read the colour ${value}`);
  }
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), Number(rgb[4] ?? 1)];
}

/** `top` painted over the opaque `under`. */
function over(top: Rgba, under: Rgba): Rgba {
  const alpha = top[3];
  const mix = (i: 0 | 1 | 2): number => top[i] * alpha + under[i] * (1 - alpha);
  return [mix(0), mix(1), mix(2), 1];
}

/** The contrast ratio of two opaque colours, 1–21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * The lowest contrast of what an element paints: text against its background; a border against both
 * the inside and the outside it separates.
 */
export function lowestContrast(colours: Painted): number {
  const inside = contrastRatio(colours.foreground, colours.background);
  return colours.outside ? Math.min(inside, contrastRatio(colours.foreground, colours.outside)) : inside;
}

function luminance([r, g, b]: Rgba): number {
  const linear = (channel: number): number => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}
