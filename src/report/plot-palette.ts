/**
 * Okabe and Ito's palette ("Color Universal Design", 2008): eight colours that readers with any common
 * colour-vision deficiency tell apart, and that stay apart in greyscale print better than Vega's default.
 */
export const OKABE_ITO = {
  blue: "#0072B2",
  orange: "#E69F00",
  bluishGreen: "#009E73",
  vermillion: "#D55E00",
  skyBlue: "#56B4E9",
  reddishPurple: "#CC79A7",
  yellow: "#F0E442",
  black: "#000000",
} as const;

/**
 * The categorical colours, in the order a legend assigns them: Okabe and Ito's, the darker and more distinct
 * first, then two of Paul Tol's (wine, grey) so that a colour channel's CATEGORY_CAPACITY values never
 * repeat a colour (Vega cycles the list), and yellow (faint on white) last.
 */
export const CATEGORY_COLOURS = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.vermillion,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
  OKABE_ITO.black,
  "#882255",
  "#999999",
  OKABE_ITO.yellow,
];

/** The most values a colour channel shows (sweep-factors.ts): one colour each. */
export const CATEGORY_CAPACITY = CATEGORY_COLOURS.length;
