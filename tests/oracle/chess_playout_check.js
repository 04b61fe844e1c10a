#!/usr/bin/env node
// Test oracle for the chess core: replays playouts written by tests/chess/oracle_test.cpp with chess.js and
// compares, at every ply, the sorted SAN list of legal moves (disambiguation and +/# included), the SAN of
// the move played, and the FEN after it (six fields, e.p. square only when a capture is legal).
// Input lines: `G<TAB>FEN` starts a playout; `M<TAB>SANS<TAB>SAN<TAB>FEN` is one ply; `E<TAB>SANS<TAB>MATE<TAB>
// STALEMATE` ends one with no legal move. Prints `plies N differences D` and up to 10 differences.
'use strict';
const { Chess } = require('chess.js');

const lines = require('fs').readFileSync(process.argv[2], 'utf8').split('\n');
let chess = null, differences = 0, plies = 0;
function report(...args) { if (differences++ < 10) console.log(...args); }
for (const line of lines) {
  const f = line.split('\t');
  if (f[0] === 'G') {
    chess = new Chess(f[1]);
    if (chess.fen() !== f[1]) report('start FEN', f[1], 'chess.js', chess.fen());
    continue;
  }
  if (f[0] !== 'M' && f[0] !== 'E') continue;
  ++plies;
  const theirs = chess.moves().sort().map((s) => s + ' ').join('');
  if (f[1] !== theirs) report('legal moves differ at', chess.fen(), '\n ours    ', f[1], '\n chess.js', theirs);
  if (f[0] === 'E') {
    if ((f[2] === '1') !== chess.isCheckmate()) report('checkmate differs at', chess.fen());
    if ((f[3] === '1') !== chess.isStalemate()) report('stalemate differs at', chess.fen());
    continue;
  }
  let played = null;
  try { played = chess.move(f[2]); } catch (e) { played = null; }
  if (!played) { report('chess.js refuses', f[2], 'at', chess.fen()); chess = new Chess(f[3]); continue; }
  if (played.san !== f[2]) report('SAN differs', f[2], 'chess.js', played.san);
  if (chess.fen() !== f[3]) { report('FEN differs', f[3], 'chess.js', chess.fen()); chess = new Chess(f[3]); }
}
console.log('plies', plies, 'differences', differences);
