// @ts-check
// Live analysis over the WebSocket (docs: server/learning/analysis.rs): the
// page sends the position it shows (`analyse`), the server streams each
// depth's lines (`analysis`) until `analyse_stop`, a new request, or its
// time is up. Only the answers to the latest request are passed on.

import { Live } from '../api.js';

/** @typedef {import('./net.js').Score} Score */
/** @typedef {import('../board/types.js').Path} Path */
/**
 * @typedef {{ score: Score, san: string[], uci: string[], path: Path | null }} Line
 * @typedef {{ id: number, fen: string, depth: number, nodes: number, time_ms: number, lines: Line[], done: boolean }} AnalysisMsg
 */

export class EngineClient {
  /**
   * @param {(msg: AnalysisMsg) => void} onLines
   * @param {(kind: string, message: string) => void} onRefused
   * @param {(up: boolean) => void} onStatus
   */
  constructor(onLines, onRefused, onStatus) {
    this.id = 0;
    this.running = false;
    /** @type {object | null} the request to send again after a reconnection */
    this.pending = null;
    this.live = new Live();
    this.live.listen((msg) => {
      if ((msg.type !== 'analysis' && msg.type !== 'analysis_refused') || msg.id !== this.id) return;
      if (msg.type === 'analysis') {
        if (msg.done) this.running = false;
        onLines(/** @type {AnalysisMsg} */ (/** @type {unknown} */ (msg)));
      } else if (msg.type === 'analysis_refused') {
        this.running = false;
        onRefused(msg.kind, msg.message);
      }
    });
    this.live.onStatus((up) => {
      onStatus(up);
      if (up && this.running && this.pending) this.live.send(this.pending);
    });
  }

  /**
   * Analyses the position after `moves` from `fen`.
   * @param {{ variant: string, fen: string, moves: string[], multipv: number }} req
   */
  start(req) {
    this.id += 1;
    this.running = true;
    this.pending = { type: 'analyse', id: this.id, variant: req.variant, fen: req.fen, moves: req.moves, multipv: req.multipv };
    this.live.send(this.pending);
  }

  stop() {
    if (this.running) this.live.send({ type: 'analyse_stop', id: this.id });
    this.running = false;
    this.pending = null;
  }
}
