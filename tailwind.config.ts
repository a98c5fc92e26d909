import type { Config } from 'tailwindcss';
import plugin from 'tailwindcss/plugin';
import { AVATAR_COLOURS } from './app/styles/avatar-colours.ts';
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

// One class per initials colour (components/avatar.tsx): the same in both schemes, as white text on
// each keeps its contrast in either.
const avatarColours = plugin(({ addComponents }) => {
  addComponents(
    Object.fromEntries(AVATAR_COLOURS.map((colour, i) => [`.avatar-c${i}`, { backgroundColor: colour }])),
  );
});

export default {
  content: ['./app/**/*.{ts,tsx}'],
  // Named by number (avatar.tsx builds `avatar-c${i}`), so no source spells them for the scan.
  safelist: AVATAR_COLOURS.map((_, i) => `avatar-c${i}`),
  theme: {
    extend: {
      colors: themedTailwindColors(),
      // The gap between a focus ring and its element is the surface's colour, in either scheme.
      ringOffsetColor: { DEFAULT: 'rgb(var(--white))' },
    },
  },
  plugins: [colourScheme, avatarColours],
} satisfies Config;
