// @ts-check
// Reading a FEN's piece placement, for display only (the server decides
// everything about legality).

/** @param {number} file @param {number} rank 0-based */
export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

/** @param {string} name */
export function parseSquare(name) {
  const file = name.charCodeAt(0) - 97;
  const rank = parseInt(name.slice(1), 10) - 1;
  return { file, rank };
}

/**
 * Map from square name to FEN letter; `*` (missing squares) are skipped.
 * @param {string} fen @param {{ ranks: number }} geometry
 * @returns {Map<string, string>}
 */
export function placement(fen, geometry) {
  const board = fen.split(/\s+/)[0].split('[')[0];
  const rows = board.split('/');
  const map = new Map();
  rows.forEach((row, i) => {
    const rank = geometry.ranks - 1 - i;
    let file = 0;
    for (let j = 0; j < row.length; j++) {
      const ch = row[j];
      if (ch >= '0' && ch <= '9') {
        let n = ch.charCodeAt(0) - 48;
        while (j + 1 < row.length && row[j + 1] >= '0' && row[j + 1] <= '9') {
          n = n * 10 + (row[j + 1].charCodeAt(0) - 48);
          j++;
        }
        file += n;
      } else if (ch === '*') {
        file += 1;
      } else {
        map.set(squareName(file, rank), ch);
        file += 1;
      }
    }
  });
  return map;
}

/**
 * The side to move.
 * @param {string} fen @returns {'white' | 'black'}
 */
export function turnOf(fen) {
  return fen.split(/\s+/)[1] === 'b' ? 'black' : 'white';
}

// The same position with the other side to move and no en-passant square
// (the rules page shows the moves of either side's pieces).
/** @param {string} fen */
export function withOtherTurn(fen) {
  const f = fen.split(/\s+/);
  if (f.length < 2) return fen;
  f[1] = f[1] === 'b' ? 'w' : 'b';
  if (f.length > 3) f[3] = '-';
  return f.join(' ');
}

/**
 * The move number a FEN gives (1 when it has none).
 * @param {string} fen
 */
export function moveNumberOf(fen) {
  return parseInt(fen.split(/\s+/)[5] || '1', 10) || 1;
}
