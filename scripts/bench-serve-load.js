// The load of scripts/bench-serve: C clients on loopback, each sending N requests one after the other (keep-alive),
// a mix of /api/run (a player of the repository, first page), /api/similar (a position of a repository game),
// /api/game/K and /api/explore (the position after game 1's 8th ply). Prints requests/s, latency percentiles per kind and the errors. Stops by itself.
// usage: node bench-serve-load.js PORT CLIENTS REQUESTS
"use strict";
const { client, percentile } = require("./bench-serve-http.js");

const [port, clients, requests] = process.argv.slice(2).map(Number);
const call = client(port, clients);

async function main() {
  const info = JSON.parse((await call("GET", "/api/info")).body);
  const game = JSON.parse((await call("GET", "/api/game/1")).body);
  const white = (game.tags.find((t) => t[0] === "White") || ["", "?"])[1];
  const fen = game.fens[Math.min(20, game.fens.length - 1)];
  const kinds = [
    ["run", () => call("POST", "/api/run", { cql: 'cql() player "' + white.replace(/["\\]/g, "") + '"', limit: 50 })],
    ["similar", () => call("POST", "/api/similar", { fen, limit: 50 })],
    ["game", (i) => call("GET", "/api/game/" + (1 + (i * 7919) % info.games))],
    ["explore", () => call("GET", "/api/explore?fen=" + encodeURIComponent(game.fens[Math.min(8, game.fens.length - 1)]))],
  ];
  const times = { run: [], similar: [], game: [], explore: [] };
  let errors = 0, firstError = "";
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; i < requests; ++i) {
      const [kind, send] = kinds[(c + i) % kinds.length];
      const r = await send(c * requests + i);
      if (r.status !== 200) { ++errors; firstError = firstError || r.status + " " + r.body.slice(0, 200); }
      times[kind].push(r.ms);
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const total = clients * requests;
  console.log(`${total} requests in ${seconds.toFixed(2)} s: ${(total / seconds).toFixed(0)} requests/s, ${errors} errors` +
              (errors ? ` (first: ${firstError})` : ""));
  const all = [];
  for (const [kind, list] of Object.entries(times)) {
    all.push(...list);
    list.sort((a, b) => a - b);
    console.log(`${kind.padEnd(8)} n=${String(list.length).padStart(5)}  p50 ${percentile(list, 0.5).toFixed(1)} ms` +
                `  p90 ${percentile(list, 0.9).toFixed(1)} ms  p99 ${percentile(list, 0.99).toFixed(1)} ms` +
                `  max ${list[list.length - 1].toFixed(1)} ms`);
  }
  all.sort((a, b) => a - b);
  console.log(`all      p50 ${percentile(all, 0.5).toFixed(1)} ms  p99 ${percentile(all, 0.99).toFixed(1)} ms` +
              `  (p99 / p50 = ${(percentile(all, 0.99) / percentile(all, 0.5)).toFixed(1)})`);
}

main();
