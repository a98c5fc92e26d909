import type { Config } from 'tailwindcss';
import plugin from 'tailwindcss/plugin';
import { schemeColours, themedTailwindColors } from './app/styles/palette.ts';

const channels = (rgb: readonly number[]) => rgb.join(' ');

// Dark mode is the palette's, not the markup's: each colour class reads a variable that
// prefers-color-scheme switches (app/styles/palette.ts says how the dark values keep every contrast).
const colourScheme = plugin(({ addBase }) => {
  const colours = schemeColours();
  addBase({
    ':root': Object.fromEntries(colours.map((c) => [`--${c.name}`, channels(c.light)])),
    '@media (prefers-color-scheme: dark)': {
      ':root': Object.fromEntries(colours.map((c) => [`--${c.name}`, channels(c.dark)])),
    },
  });
});

export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: themedTailwindColors(),
      // The gap between a focus ring and its element is the surface's colour, in either scheme.
      ringOffsetColor: { DEFAULT: 'rgb(var(--white))' },
    },
  },
  plugins: [colourScheme],
} satisfies Config;
