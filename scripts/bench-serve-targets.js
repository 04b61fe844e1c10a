// The single-request targets of issue 19 (scripts/bench-serve --targets): one kind of request asked N times in
// turn by one client on loopback, the server warm (five untimed requests first), its median and p90 printed.
// Kinds: similar (a FEN: the position after the 20th ply of game 1, as a study), near (the same study with
// "near": 1, as `cqlindex similar --near 1`), explore (the positions after 0,
// 2, 4, 8 and 12 plies of game 1, in turn), kasparov (/api/run `player "Kasparov"`, first page of 50 games).
// usage: node bench-serve-targets.js PORT N KIND
"use strict";
const { client, percentile } = require("./bench-serve-http.js");

const [port, n] = process.argv.slice(2, 4).map(Number);
const kind = process.argv[4];
const call = client(port, 1);

async function main() {
  const game = JSON.parse((await call("GET", "/api/game/1")).body);
  const fen = game.fens[Math.min(20, game.fens.length - 1)];
  const plies = [0, 2, 4, 8, 12].map((p) => game.fens[Math.min(p, game.fens.length - 1)]);
  const kinds = {
    similar: ["similar (one study)", () => call("POST", "/api/similar", { fen, limit: 50 })],
    near: ["similar near 1 (one study)", () => call("POST", "/api/similar", { fen, near: 1, limit: 50 })],
    explore: ["explore", (i) => call("GET", "/api/explore?fen=" + encodeURIComponent(plies[i % plies.length]))],
    kasparov: ["run player Kasparov, first page",
               () => call("POST", "/api/run", { cql: 'cql() player "Kasparov"', limit: 50 })],
  };
  if (!kinds[kind]) { console.error("kind: one of " + Object.keys(kinds).join(", ")); process.exit(1); }
  const [name, send] = kinds[kind];
  for (let i = 0; i < 5; ++i) await send(i);  // warm
  const times = [];
  let errors = 0, note = "";
  for (let i = 0; i < n; ++i) {
    const r = await send(i);
    if (r.status !== 200) { ++errors; note = note || r.status + " " + r.body.slice(0, 120); }
    else if (!note) {
      const body = JSON.parse(r.body);
      note = kind === "explore" ? "source " + (body.source || "replay")
                                : body.matches + " matches, " + body.results.length + " on the page" +
                                  (body.near ? ", " + body.near.pairs + " near pairs" : "");
    }
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(32)} n=${n}  median ${percentile(times, 0.5).toFixed(2)} ms  p90 ` +
              `${percentile(times, 0.9).toFixed(2)} ms  ${errors} errors${note ? "  (" + note + ")" : ""}`);
}

main();
