// @ts-check
// Sounds of the game, synthesised with the Web Audio API (no files to
// load): a move, a capture, a check, the end of a game, low time. Muted by
// the player's setting. Every sound played is also announced as a
// `tc-sound` event on window (for tests and anyone listening).

import * as settings from './settings.js';
import { frozen } from './frozen.js';

/** @typedef {'move' | 'capture' | 'check' | 'end' | 'lowtime' | 'illegal'} SoundName */

/** A new audio context, woken whenever the page is used; null where there is none. @returns {AudioContext | null} */
function newAudio() {
  const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!AC) return null;
  try {
    const ctx = new AC();
    // Browsers start audio suspended until the page is used: wake it then.
    for (const type of ['pointerdown', 'keydown']) {
      window.addEventListener(type, () => { if (ctx.state === 'suspended') ctx.resume().catch(() => {}); }, { passive: true });
    }
    return ctx;
  } catch (_) {
    return null;
  }
}

/**
 * One short tone: a frequency sliding from f0 to f1, with a quick attack
 * and decay; `noise` adds a click (wood on wood).
 * @param {AudioContext} ac @param {{ at?: number, f0: number, f1?: number, dur: number, gain?: number, type?: OscillatorType, noise?: boolean }} o
 */
function tone(ac, o) {
  const t0 = ac.currentTime + (o.at || 0);
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = o.type || 'sine';
  osc.frequency.setValueAtTime(o.f0, t0);
  if (o.f1) osc.frequency.exponentialRampToValueAtTime(o.f1, t0 + o.dur);
  const peak = o.gain ?? 0.25;
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(peak, t0 + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + o.dur);
  osc.connect(g).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + o.dur + 0.02);
  if (o.noise) {
    const len = Math.floor(ac.sampleRate * 0.03);
    const buf = ac.createBuffer(1, len, ac.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
    const src = ac.createBufferSource();
    const ng = ac.createGain();
    ng.gain.value = peak * 0.9;
    src.buffer = buf;
    src.connect(ng).connect(ac.destination);
    src.start(t0);
  }
}

/** @type {Record<SoundName, (ac: AudioContext) => void>} */
const SOUNDS = frozen({
  move: (ac) => tone(ac, { f0: 420, f1: 260, dur: 0.09, gain: 0.22, type: 'triangle', noise: true }),
  capture: (ac) => {
    tone(ac, { f0: 300, f1: 140, dur: 0.14, gain: 0.3, type: 'triangle', noise: true });
    tone(ac, { at: 0.03, f0: 620, f1: 300, dur: 0.08, gain: 0.12, type: 'square' });
  },
  check: (ac) => {
    tone(ac, { f0: 880, dur: 0.12, gain: 0.18, type: 'square' });
    tone(ac, { at: 0.13, f0: 1175, dur: 0.16, gain: 0.16, type: 'square' });
  },
  end: (ac) => {
    for (const [i, f] of [523, 659, 784, 1047].entries()) tone(ac, { at: i * 0.11, f0: f, dur: 0.3, gain: 0.16 });
  },
  lowtime: (ac) => {
    tone(ac, { f0: 1320, dur: 0.07, gain: 0.14, type: 'square' });
    tone(ac, { at: 0.12, f0: 1320, dur: 0.07, gain: 0.14, type: 'square' });
  },
  illegal: (ac) => tone(ac, { f0: 180, f1: 120, dur: 0.16, gain: 0.16, type: 'sawtooth' }),
});

/**
 * A page's sounds: `play(name)`. Its audio context is made on the first
 * sound played (browsers allow sound after a gesture) and kept here.
 * @returns {{ play: (name: SoundName) => void }}
 */
export function createSounds() {
  /** @type {{ ctx: AudioContext | null | undefined }} undefined until the first sound */
  const audio = { ctx: undefined };
  return {
    play(name) {
      window.dispatchEvent(new CustomEvent('tc-sound', { detail: { name, muted: isMuted() } }));
      if (isMuted()) return;
      if (audio.ctx === undefined) audio.ctx = newAudio();
      const ac = audio.ctx;
      if (!ac) return;
      try { SOUNDS[name](ac); } catch (_) { /* sound is a nicety */ }
    },
  };
}

export const isMuted = () => settings.get('muted');

/** @param {boolean} muted */
export function setMuted(muted) {
  settings.set('muted', muted);
}

/**
 * The sound for a move just shown: check, capture or a plain move.
 * @param {{ san: string, path?: { captured?: string | null } }} move
 */
export function forMove(move) {
  if (/[+#]$/.test(move.san)) return 'check';
  if ((move.path && move.path.captured) || move.san.includes('x')) return 'capture';
  return 'move';
}
