#!/usr/bin/env node
// Test oracle: prints `GAME<TAB>PLY<TAB>FEN` for every mainline position of every game of a PGN file, as
// chess.js computes it (the format of `cqlindex check --fen`). Independent of cqlindex's reader on purpose:
// games are split at the first tag line after movetext; the movetext is reduced to its mainline here
// (comments, variations, NAGs, move numbers and results dropped) and every move is played with chess.js's
// move(). A move chess.js refuses ends the game with `GAME<TAB>ERROR<TAB>ply N: token`, so that the
// comparison can name it. chess.js refuses FEN move number 0; such a FEN is read as move 1, which is what
// CQL 6.2 does with it (its output files write these FENs with move number 1).
'use strict';
const fs = require('fs');
const { Chess } = require('chess.js');

const text = fs.readFileSync(process.argv[2], 'latin1').replace(/^\u00ef\u00bb\u00bf/, '');
const lines = text.split(/\r\n|\r|\n/);

// Split into games: [tag lines, movetext lines].
const games = [];
let tags = [], moves = [], inMovetext = false;
for (const line of lines) {
  const isTag = /^\s*\[/.test(line) && !inMovetextComment(moves);
  if (isTag && inMovetext) { games.push({ tags, moves }); tags = []; moves = []; inMovetext = false; }
  if (isTag) tags.push(line);
  else if (line.trim() !== '') { inMovetext = true; moves.push(line); }
}
if (tags.length || moves.length) games.push({ tags, moves });

// True while an open `{` comment spans lines (a `[` line inside it is not a tag).
function inMovetextComment(ls) {
  let open = false;
  for (const l of ls) for (const ch of l) { if (ch === '{') open = true; else if (ch === '}') open = false; }
  return open;
}

// Mainline SAN tokens of a movetext.
function mainline(movetextLines) {
  const src = movetextLines.filter((l) => !l.startsWith('%')).join('\n');
  const tokens = [];
  let depth = 0, i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '{') { const j = src.indexOf('}', i); i = j < 0 ? src.length : j + 1; continue; }
    if (c === ';') { const j = src.indexOf('\n', i); i = j < 0 ? src.length : j + 1; continue; }
    if (c === '(') { depth++; i++; continue; }
    if (c === ')') { depth--; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    let j = i;
    while (j < src.length && !/[\s{}();]/.test(src[j])) j++;
    const tok = src.slice(i, j);
    i = j;
    if (depth > 0) continue;
    if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok)) continue;
    const move = tok.replace(/^\d+\.*/, '').replace(/[!?]+$/, '');
    if (move === '' || /^\$\d+$/.test(move)) continue;
    tokens.push(move);
  }
  return tokens;
}

function tagValue(tagLines, name) {
  for (const l of tagLines) {
    const m = l.match(/^\s*\[(\w+)\s+"(.*)"\s*\]\s*$/);
    if (m && m[1] === name) return m[2];
  }
  return undefined;
}

const out = [];
games.forEach((g, i) => {
  const n = i + 1;
  let fen = tagValue(g.tags, 'FEN');
  if (fen !== undefined) {
    const f = fen.trim().split(/\s+/);
    if (f.length === 6 && f[5] === '0') f[5] = '1';
    fen = f.join(' ');
  }
  let chess;
  try {
    chess = fen === undefined ? new Chess() : new Chess(fen);
  } catch (e) {
    out.push(`${n}\tERROR\tFEN: ${e.message}`);
    return;
  }
  out.push(`${n}\t0\t${chess.fen()}`);
  const toks = mainline(g.moves);
  for (let ply = 0; ply < toks.length; ply++) {
    try {
      chess.move(toks[ply], { strict: false });
    } catch (e) {
      out.push(`${n}\tERROR\tply ${ply + 1}: ${toks[ply]}`);
      return;
    }
    out.push(`${n}\t${ply + 1}\t${chess.fen()}`);
  }
});
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
