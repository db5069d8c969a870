// @ts-check
// Ratings as pages show them (Glicko-2, kept by the server): rounded, a
// question mark while the deviation is still large, changes with a sign.

/** A rating whose deviation (RD) is above this is provisional (as the server marks seeks). */
export const PROVISIONAL_RD = 110;

/** @param {{ rd: number }} r */
export const isProvisional = (r) => r.rd > PROVISIONAL_RD;

/** A rating change as shown: "+12", "−8" (a real minus sign), "±0". @param {number} diff */
export const signed = (diff) => (diff > 0 ? `+${diff}` : diff < 0 ? `\u2212${-diff}` : '\u00b10');
