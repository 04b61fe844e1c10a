// Drives the page of `cqlindex serve` in headless Chromium as a person would (tests/serve/page_browser_test.cpp
// checks what it reports): types a bad query and reads the error, runs a query and counts the results, opens
// one and steps to its matched positions, reads the explorer and walks on with it, pastes a study and reads its
// predecessors, ticks "near" with a study one square away from a game, reads its near predecessor and opens it
// in the game viewer, runs a
// YACPDB query in its tab and opens an entry's diagram, chooses another repository in the
// selector and runs the query there, and loads the page again from its URL (which keeps the repository).
// Prints one JSON object.
// usage: node page_check.js CHROMIUM URL QUERY STUDY_FEN PROFILE_DIR SCREENSHOT.png YACPDB_QUERY SECOND_REPO NEAR_FEN
"use strict";
const { launch, openServedPage } = require("./browser_session");

const [chromium, url, query, studyFen, profile, screenshot, yacpdbQuery, secondRepo, nearFen] = process.argv.slice(2);

async function main() {
  const browser = await launch(chromium, profile);
  const report = { foreign_requests: [] };
  try {
    const page = await openServedPage(browser, url, report);
    report.info = await page.$eval("#repo-info", (e) => e.textContent);

    // a query with a mistake on line 2: the error names it
    const typeQuery = async (text) => {
      await page.$eval("#cql", (e) => { e.value = ""; });
      await page.type("#cql", text);
      await page.click("#run");
    };
    await typeQuery("cql()\nmate and (");
    await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
    report.error = await page.$eval("#error", (e) => e.textContent);

    // the real query: N results
    await typeQuery(query);
    await page.waitForFunction(() => document.getElementById("error").textContent === "" &&
                                     document.querySelectorAll("#results .result").length > 0);
    report.status = await page.$eval("#status", (e) => e.textContent);
    report.results = await page.$$eval("#results .result", (l) => l.map((e) => +e.dataset.number));

    // open the first: the board shows its first matched position; step forward, then to the next match
    await page.click("#results .result");
    await page.waitForSelector("#board");
    await page.waitForFunction(() => document.querySelectorAll("#moves .move").length > 0);
    report.matched_moves = await page.$$eval("#moves .move.matched", (l) => l.map((e) => +e.dataset.ply));
    report.opened_at = await page.$eval("#board", (e) => +e.dataset.ply);
    await page.click("#first");
    report.after_first = await page.$eval("#board", (e) => +e.dataset.ply);
    await page.click("#forward");
    report.after_forward = await page.$eval("#board", (e) => +e.dataset.ply);
    await page.click("#next-match");
    report.after_next_match = await page.$eval("#board", (e) => +e.dataset.ply);
    report.board_pieces = await page.$$eval("#board text.piece", (l) => l.length);
    report.board_marked = await page.$eval("#board", (e) => e.classList.contains("marked"));
    // the explorer of the board shown: the moves played from it; a click walks on to the position it leads to
    await page.waitForFunction(() => document.querySelectorAll("#explorer .explore-move").length > 0);
    report.explorer_title = await page.$eval("#explorer-title", (e) => e.textContent);
    report.explorer_first = await page.$eval("#explorer .explore-move", (e) => ({ san: e.cells[0].textContent,
                                                                                fen: e.dataset.fen }));
    await page.screenshot({ path: screenshot });
    await page.click("#explorer .explore-move");
    await page.waitForFunction((fen) => document.getElementById("board").dataset.fen === fen, {},
                               report.explorer_first.fen);
    report.walked_to = await page.$eval("#board", (e) => e.dataset.fen);

    // the study tab: a FEN pasted, its predecessors shown beside it
    await page.click("#tab-study");
    await page.type("#study", studyFen);
    await page.click("#find");
    await page.waitForFunction(() => document.querySelectorAll("#predecessors .pair").length > 0 ||
                                     document.getElementById("study-error").textContent.length > 0);
    report.study_error = await page.$eval("#study-error", (e) => e.textContent);
    report.predecessors = await page.$$eval("#predecessors .pair", (l) => l.map((e) => +e.dataset.number));
    report.pair_boards = await page.$$eval("#predecessors .pair:first-child svg", (l) => l.length);

    // near (1 difference): a study one square away from a game shows that game as a near predecessor
    await page.$eval("#study", (e) => { e.value = ""; });
    await page.type("#study", nearFen);
    await page.click("#near");
    await page.click("#find");
    await page.waitForFunction(() => document.querySelectorAll("#predecessors .pair.near").length > 0 ||
                                     document.getElementById("study-error").textContent.length > 0);
    report.near_error = await page.$eval("#study-error", (e) => e.textContent);
    report.near_status = await page.$eval("#study-status", (e) => e.textContent);
    report.near = await page.$$eval("#predecessors .pair.near", (l) => l.map((e) => +e.dataset.number));
    report.near_first = await page.$eval("#predecessors .pair.near", (e) => ({
      differs: e.dataset.differs, label: e.querySelector(".label").textContent,
      outlined: [...e.querySelectorAll("rect.differs")].map((r) => r.dataset.square) }));
    // a click opens the near pair's game in the viewer, at its ply, saying how it was seen
    const nearGame = report.near[0];
    await page.click("#predecessors .pair.near");
    await page.waitForFunction((n) => document.getElementById("game-title").dataset.number === String(n) &&
                                      document.getElementById("board") !== null, {}, nearGame);
    report.near_opened = {
      number: +(await page.$eval("#game-title", (e) => e.dataset.number)),
      ply: +(await page.$eval("#board", (e) => e.dataset.ply)),
      note: await page.$eval("#game-note", (e) => e.textContent),
    };
    await page.click("#tab-study");
    await page.click("#near");  // unticked for what follows

    // the YACPDB tab: a query with a mistake shows its column; the real one lists entries; one opens on the board
    await page.click("#tab-yacpdb");
    const typeYacpdb = async (text) => {
      await page.$eval("#yacpdb-query", (e) => { e.value = ""; });
      await page.type("#yacpdb-query", text);
      await page.click("#yacpdb-run");
    };
    await typeYacpdb(yacpdbQuery + " AND");
    await page.waitForFunction(() => document.getElementById("yacpdb-error").textContent.length > 0);
    report.yacpdb_error = await page.$eval("#yacpdb-error", (e) => e.textContent);
    await typeYacpdb(yacpdbQuery);
    await page.waitForFunction(() => document.getElementById("yacpdb-error").textContent === "" &&
                                     document.querySelectorAll("#yacpdb-results .entry").length > 0);
    report.yacpdb_status = await page.$eval("#yacpdb-status", (e) => e.textContent);
    report.yacpdb_entries = await page.$$eval("#yacpdb-results .entry", (l) => l.map((e) => +e.dataset.number));
    await page.click("#yacpdb-results .entry");
    await page.waitForSelector("#yacpdb-board");
    report.yacpdb_fen = await page.$eval("#yacpdb-board", (e) => e.dataset.fen);
    report.yacpdb_pieces = await page.$$eval("#yacpdb-board text.piece", (l) => l.length);
    report.yacpdb_pgn = await page.$eval("#yacpdb-pgn", (e) => e.textContent);

    // another repository from the selector: what the last one answered is cleared; the query runs there
    report.repositories = await page.$$eval("#repo option", (l) => l.map((e) => e.value));
    await page.click("#tab-query");
    await page.select("#repo", secondRepo);
    report.cleared = await page.$$eval("#results .result", (l) => l.length);
    report.second_info = await page.$eval("#repo-info", (e) => e.textContent);
    await page.click("#run");
    await page.waitForFunction(() => document.querySelectorAll("#results .result").length > 0);
    report.second_status = await page.$eval("#status", (e) => e.textContent);
    report.second_results = await page.$$eval("#results .result", (l) => l.map((e) => +e.dataset.number));
    report.url_repo = new URL(page.url()).searchParams.get("repo");
    // the page's URL keeps the choice: loaded again, it asks the same repository
    await page.goto(page.url(), { waitUntil: "load" });
    await page.waitForFunction(() => document.getElementById("repo-info").textContent.length > 0);
    report.reloaded_repo = await page.$eval("#repo", (e) => e.value);
    report.reloaded_info = await page.$eval("#repo-info", (e) => e.textContent);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report) + "\n");
}

main().catch((e) => { process.stdout.write(JSON.stringify({ failed: String(e && e.stack || e) }) + "\n"); process.exit(1); });
