// The HTTP side of scripts/bench-serve's load and targets: a keep-alive client on loopback that times each call.
"use strict";
const http = require("http");

// Returns call(method, path, body) -> Promise of { status, body, ms } for the server on `port`, at most
// `sockets` connections at once; a failed connection resolves with status 0.
function client(port, sockets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return function call(method, path, body) {
    return new Promise((resolve) => {
      const started = process.hrtime.bigint();
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
      const data = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request({ host: "127.0.0.1", port, method, path, agent,
                                     headers: data ? { "Content-Type": "application/json",
                                                       "Content-Length": Buffer.byteLength(data) } : {} },
        (response) => {
          const chunks = [];
          response.on("data", (c) => chunks.push(c));
          response.on("end", () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString(),
                                             ms: elapsed() }));
        });
      request.on("error", (e) => resolve({ status: 0, body: String(e), ms: elapsed() }));
      if (data) request.write(data);
      request.end();
    });
  };
}

// Returns the p-quantile (0..1) of the sorted numbers (0 when there are none).
function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;
}

module.exports = { client, percentile };
