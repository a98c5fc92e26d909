/**
 * The colours behind every Tailwind class the app writes (`bg-white`, `text-slate-600`, …), light and
 * dark. tailwind.config.ts points each class at a CSS variable, and this module fills the variables:
 * Tailwind's own colours in light mode, and in dark mode (`prefers-color-scheme`) the colour that keeps
 * the contrast of every pair the same.
 *
 * That is possible because WCAG's contrast ratio is (L1 + 0.05) / (L2 + 0.05) of relative luminances:
 * mapping every luminance L to k / (L + 0.05) - 0.05 turns each ratio into its inverse, so text that
 * reads at 4.5:1 on its background in light mode reads at 4.5:1 in dark mode too, whatever the pair —
 * markup never needs `dark:` classes. The hue stays; the lightness (in OKLab) is solved for the new
 * luminance, with chroma reduced where sRGB cannot show it. k is chosen by what white becomes (the
 * surface of cards and panels). A few backgrounds are made darker still (OVERRIDES): a darker
 * background only raises the contrast of the light text on it.
 */
import tailwindColors from 'tailwindcss/colors';

export const SHADES = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const;
/** The palettes that follow the colour scheme; any other Tailwind colour stays as it is in both. */
export const THEMED = [
  'slate',
  'gray',
  'red',
  'orange',
  'amber',
  'yellow',
  'lime',
  'green',
  'emerald',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
] as const;

type Palette = (typeof THEMED)[number];
type Rgb = readonly [number, number, number];

/** White in dark mode: the surface of cards, panels and the sidebar (Linear-like, a blue-tinted grey). */
export const DARK_SURFACE = '#181b24';
/** Dark-mode values chosen by hand, each darker than the formula's (see above). */
const OVERRIDES: Record<string, string> = {
  // White's twin is a neutral grey of this luminance; the surface keeps the page's blue tint instead.
  white: DARK_SURFACE,
  // The page behind the surfaces: darker than them, so cards and panels read as raised.
  'slate-50': '#0f1117',
};

export function hexToRgb(hex: string): Rgb {
  const digits = hex.replace('#', '');
  const n = Number.parseInt(digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** WCAG relative luminance of an 8-bit sRGB colour. */
export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * toLinear(r / 255) + 0.7152 * toLinear(g / 255) + 0.0722 * toLinear(b / 255);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

// OKLab (Björn Ottosson, "A perceptual color space for image processing", 2020), from and to linear sRGB.
function toOklab([r, g, b]: Rgb): [number, number, number] {
  const [lr, lg, lb] = [toLinear(r / 255), toLinear(g / 255), toLinear(b / 255)];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** Linear sRGB of an OKLab colour; channels outside 0–1 mean sRGB cannot show it. */
function fromOklab(L: number, a: number, b: number): [number, number, number] {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614671 * s,
  ];
}

/** The colour of `hue`'s hue and (as far as sRGB allows) chroma whose luminance is `target`. */
function withLuminance(hue: Rgb, target: number): Rgb {
  const [, a0, b0] = toOklab(hue);
  const shown = (L: number): Rgb => {
    // The most chroma, up to the original's, that sRGB can show at this lightness.
    let scale = 1;
    for (let i = 0; i < 30; i++) {
      const rgb = fromOklab(L, a0 * scale, b0 * scale);
      if (rgb.every((c) => c >= -1e-6 && c <= 1 + 1e-6)) break;
      scale *= 0.9;
    }
    const rgb = fromOklab(L, a0 * scale, b0 * scale);
    const channel = (c: number) => Math.round(fromLinear(Math.min(1, Math.max(0, c))) * 255);
    return [channel(rgb[0]), channel(rgb[1]), channel(rgb[2])];
  };
  let [lo, hi] = [0, 1];
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (luminance(shown(mid)) < target) lo = mid;
    else hi = mid;
  }
  // Of the two 8-bit neighbours of the exact answer, the one further from the middle of the range
  // (in contrast terms, 0.179), so that rounding never takes a pair below the ratio it had.
  return target < 0.179 ? shown(lo) : shown(hi);
}

const K = 1.05 * (luminance(hexToRgb(DARK_SURFACE)) + 0.05);

/** The dark-mode twin of a light-mode colour: every contrast ratio with other twins is kept. */
export function darkTwin(light: Rgb): Rgb {
  const target = Math.min(1, Math.max(0, K / (luminance(light) + 0.05) - 0.05));
  return withLuminance(light, target);
}

export interface SchemeColour {
  /** The CSS variable's name without `--`, and the class's colour name: `slate-100`, `white`. */
  name: string;
  light: Rgb;
  dark: Rgb;
}

/** Every themed colour with its light and dark value. */
export function schemeColours(): SchemeColour[] {
  const colours: Array<{ name: string; hex: string }> = [
    { name: 'white', hex: tailwindColors.white },
    { name: 'black', hex: tailwindColors.black },
  ];
  for (const palette of THEMED)
    for (const shade of SHADES)
      colours.push({ name: `${palette}-${shade}`, hex: tailwindColors[palette][shade] });
  return colours.map(({ name, hex }) => {
    const light = hexToRgb(hex);
    const override = OVERRIDES[name];
    return { name, light, dark: override ? hexToRgb(override) : darkTwin(light) };
  });
}

/** Tailwind's `colors` for the themed palettes: each shade a variable, so opacity modifiers still work. */
export function themedTailwindColors() {
  const variable = (name: string) => `rgb(var(--${name}) / <alpha-value>)`;
  const palettes = Object.fromEntries(
    THEMED.map((palette: Palette) => [
      palette,
      Object.fromEntries(SHADES.map((shade) => [shade, variable(`${palette}-${shade}`)])),
    ]),
  );
  return { white: variable('white'), black: variable('black'), ...palettes };
}
