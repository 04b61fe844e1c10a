// The browser session of the page tests: Debian's chromium, headless, driven by puppeteer-core (installed by
// scripts/oracle-setup), and the served page opened as a person opens it, with what it does wrong recorded in the
// caller's report (an uncaught page error; a request to anywhere but the server).
"use strict";
const path = require("path");
const puppeteer = require(path.join(__dirname, "..", "oracle", "node_modules", "puppeteer-core"));

// Starts chromium with its own profile folder.
function launch(chromium, profile) {
  return puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
}

// Opens the page at `url` in a 1280x900 window and waits until it has read the repository's facts.
async function openServedPage(browser, url, report) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const origin = new URL(url).origin;
  report.foreign_requests = report.foreign_requests || [];
  page.on("request", (r) => { if (!r.url().startsWith(origin)) report.foreign_requests.push(r.url()); });
  page.on("pageerror", (e) => { report.page_error = String(e); });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("repo-info").textContent.length > 0);
  return page;
}

module.exports = { launch, openServedPage };
