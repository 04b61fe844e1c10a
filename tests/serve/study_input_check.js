// Types studies into the Study tab of `cqlindex serve`'s page in headless Chromium, as a judge would, mistakes
// included (tests/serve/page_browser_test.cpp checks what it reports): two FENs on two lines, a FEN with a wrong
// side to move, a FEN without one, PGN with a move that cannot be played, and the initial position (a position
// of every game: the answer's warning). For each: the error shown, the status, the predecessors listed, the
// warnings. Screenshots of the bad FEN's error and of the warnings. Prints one JSON object.
// usage: node study_input_check.js CHROMIUM URL PROFILE_DIR SCREENSHOT_PREFIX FEN1 FEN2
"use strict";
const { launch, openServedPage } = require("./browser_session");

const [chromium, url, profile, screenshots, fen1, fen2] = process.argv.slice(2);

async function main() {
  const browser = await launch(chromium, profile);
  const report = {};
  try {
    const page = await openServedPage(browser, url, report);
    await page.click("#tab-study");

    // types `text` (a newline is the Enter key) and finds predecessors; returns what the tab shows once answered
    const study = async (text, screenshot) => {
      await page.$eval("#study", (e) => { e.value = ""; });
      await page.type("#study", text);
      await page.click("#find");
      await page.waitForFunction(() => document.getElementById("study-status").textContent !== "searching...");
      if (screenshot) await page.screenshot({ path: screenshots + screenshot });
      return {
        error: await page.$eval("#study-error", (e) => e.textContent),
        status: await page.$eval("#study-status", (e) => e.textContent),
        pairs: await page.$$eval("#predecessors .pair", (l) => l.map((e) => +e.dataset.number)),
        boards: await page.$$eval("#predecessors .pair:first-child svg", (l) => l.length),
        warnings: await page.$$eval("#study-warnings li", (l) => l.map((e) => e.textContent)),
      };
    };
    report.two_fens = await study(fen1 + "\n" + fen2);
    // each mistake after an answer was listed: the answer goes, the mistake is said
    report.bad_side = await study("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "study-bad-fen.png");
    report.no_side = await study("4k3/8/8/8/8/8/8/4K3");
    report.wrong_move = await study("[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n");
    report.start = await study("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "study-warnings.png");
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report) + "\n");
}

main().catch((e) => { process.stdout.write(JSON.stringify({ failed: String(e && e.stack || e) }) + "\n"); process.exit(1); });
