// Works a study with more than a page of predecessors in the Study tab of `cqlindex serve`'s page in headless
// Chromium, as a judge would (tests/serve/page_browser_test.cpp checks what it reports): the first page, the next
// one and back, then a click on the second page's first match, which opens its game in the viewer. Screenshots
// of the first page and of the match opened. Prints one JSON object.
// usage: node study_workbench_check.js CHROMIUM URL PROFILE_DIR SCREENSHOT_PREFIX STUDY
"use strict";
const { launch, openServedPage } = require("./browser_session");

const [chromium, url, profile, screenshots, study] = process.argv.slice(2);

async function main() {
  const browser = await launch(chromium, profile);
  const report = {};
  try {
    const page = await openServedPage(browser, url, report);
    await page.click("#tab-study");
    await page.type("#study", study);

    // what the tab shows once the page asked is answered
    const answered = async (click) => {
      await page.click(click);
      await page.waitForFunction(() => document.getElementById("study-status").textContent !== "searching..." &&
                                       document.getElementById("study-page").textContent !== "");
      return {
        status: await page.$eval("#study-status", (e) => e.textContent),
        page: await page.$eval("#study-page", (e) => e.textContent),
        pairs: await page.$$eval("#predecessors .pair", (l) => l.map((e) => +e.dataset.number)),
        plies: await page.$$eval("#predecessors .pair", (l) => l.map((e) => +e.dataset.ply)),
        captions: await page.$$eval("#predecessors .pair figcaption", (l) => l.slice(0, 3).map((e) => e.textContent)),
      };
    };
    report.first = await answered("#find");
    await page.screenshot({ path: screenshots + "study-page.png" });
    report.second = await answered("#study-next");
    report.back = await answered("#study-prev");
    report.again = await answered("#study-next");

    // the second page's first match, opened in the viewer
    const number = report.again.pairs[0];
    await page.click("#predecessors .pair");
    await page.waitForFunction((n) => document.getElementById("game-title").dataset.number === String(n) &&
                                      document.getElementById("board") !== null, {}, number);
    report.viewer = {
      query_tab_shown: await page.$eval("#query-tab", (e) => e.classList.contains("active")),
      number: +(await page.$eval("#game-title", (e) => e.dataset.number)),
      title: await page.$eval("#game-title", (e) => e.textContent),
      note: await page.$eval("#game-note", (e) => e.textContent),
      ply: +(await page.$eval("#board", (e) => e.dataset.ply)),
      fen: await page.$eval("#board", (e) => e.dataset.fen),
      ply_info: await page.$eval("#ply-info", (e) => e.textContent),
    };
    await page.screenshot({ path: screenshots + "study-match-opened.png" });
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report) + "\n");
}

main().catch((e) => { process.stdout.write(JSON.stringify({ failed: String(e && e.stack || e) }) + "\n"); process.exit(1); });
