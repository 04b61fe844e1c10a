// The judges' report (`similar --report`, issue 17) as a browser renders it: headless Chromium (Debian package
// `chromium`, installed by scripts/setup) loads it, --dump-dom gives the document it built (boards, matches,
// transform texts counted there) and --screenshot an image, which must not be blank. A normal report, one with
// no match and one with more than 500 matches (collapsed). Skipped, saying why, only when chromium is missing.
#include <zlib.h>

#include <catch2/catch.hpp>

#include "similar/near_test_util.h"

using namespace cqlindex;
using namespace cqlindex::test;

namespace {

const fs::path kSmall = data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn";

// The chromium executable, or "" when it is not installed.
std::string chromium() {
  ProcessResult r = run_process("command -v chromium 2>/dev/null");
  std::string path = r.out.substr(0, r.out.find('\n'));
  return r.exit_code == 0 ? path : std::string();
}

// Chromium's headless flags: no sandbox (tests may run as root), its profile in the test's folder.
std::string headless(const std::string& browser, const fs::path& dir) {
  return shell_quote(browser) + " --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=" +
         shell_quote((dir / "profile").string()) + " ";
}

// The DOM Chromium builds from `page`.
std::string dump_dom(const std::string& browser, const fs::path& dir, const fs::path& page) {
  return run_process(headless(browser, dir) + "--dump-dom " + shell_quote("file://" + page.string()) + " 2>/dev/null")
      .out;
}

// The pixels of an 8-bit RGB or RGBA PNG (non-interlaced, as Chromium writes), as rows of RGBA; empty when the
// file is not one.
std::vector<std::array<uint8_t, 4>> png_pixels(const std::string& png, uint32_t& width, uint32_t& height) {
  std::vector<std::array<uint8_t, 4>> pixels;
  if (png.size() < 33 || png.compare(1, 3, "PNG") != 0) return pixels;
  auto be32 = [&](size_t at) {
    return uint32_t(uint8_t(png[at])) << 24 | uint32_t(uint8_t(png[at + 1])) << 16 |
           uint32_t(uint8_t(png[at + 2])) << 8 | uint32_t(uint8_t(png[at + 3]));
  };
  width = be32(16);
  height = be32(20);
  const int depth = uint8_t(png[24]), colour = uint8_t(png[25]), interlace = uint8_t(png[28]);
  if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0) return pixels;
  const size_t channels = colour == 6 ? 4 : 3;
  std::string compressed;
  for (size_t at = 8; at + 12 <= png.size();) {
    const uint32_t length = be32(at);
    if (png.compare(at + 4, 4, "IDAT") == 0) compressed.append(png, at + 8, length);
    at += 12 + length;
  }
  const size_t stride = width * channels;
  std::vector<uint8_t> raw((stride + 1) * height);
  uLongf raw_size = uLongf(raw.size());
  if (uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(compressed.data()), uLong(compressed.size())) !=
          Z_OK ||
      raw_size != raw.size())
    return pixels;
  std::vector<uint8_t> previous(stride, 0), row(stride);
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* in = &raw[y * (stride + 1) + 1];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= channels ? row[i - channels] : 0, b = previous[i],
                c = i >= channels ? previous[i - channels] : 0;
      int predicted = 0;
      switch (filter) {
        case 1:
          predicted = a;
          break;
        case 2:
          predicted = b;
          break;
        case 3:
          predicted = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          break;
      }
      row[i] = uint8_t(in[i] + predicted);
    }
    for (uint32_t x = 0; x < width; ++x)
      pixels.push_back({row[x * channels], row[x * channels + 1], row[x * channels + 2],
                        uint8_t(channels == 4 ? row[x * channels + 3] : 255)});
    previous = row;
  }
  return pixels;
}

// The share of pixels of the screenshot of `page` that differ from its top-left pixel (the page's background).
double ink_of_screenshot(const std::string& browser, const fs::path& dir, const fs::path& page) {
  const fs::path shot = dir / "shot.png";
  fs::remove(shot);
  run_process(headless(browser, dir) + "--window-size=1000,1400 --screenshot=" + shell_quote(shot.string()) + " " +
              shell_quote("file://" + page.string()) + " >/dev/null 2>&1");
  uint32_t width = 0, height = 0;
  const auto pixels = png_pixels(slurp(shot), width, height);
  if (pixels.empty() || pixels.size() != size_t(width) * height) return -1;
  size_t ink = 0;
  for (const auto& p : pixels) ink += p != pixels.front();
  return double(ink) / double(pixels.size());
}

// Runs `similar SUBS -i repository.pgn --near 1 --report report.html`; returns the number of matches it reports.
size_t write_report(const fs::path& dir, const std::string& submissions) {
  spit(dir / "subs.pgn", submissions);
  REQUIRE(cqlindex_in(dir, "similar subs.pgn -i repository.pgn -o out.pgn --near 1 --report report.html").exit_code ==
          0);
  const auto count = lines_starting(stderr_of(dir), "near: ");
  REQUIRE(!count.empty());
  std::smatch m;
  const std::string last = count.back();
  REQUIRE(std::regex_search(last, m, std::regex("^near: ([0-9]+) pairs")));
  return std::stoul(m[1]);
}

struct Fixture {
  ScratchDir dir{"near-browser"};
  std::string browser = chromium();
  std::string repository = slurp(kSmall);
  Fixture() {
    spit(dir.path() / "repository.pgn", repository);
    REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  }
};

}  // namespace

TEST_CASE("similar --report in headless Chromium: boards, matches and transforms as written",
          "[similar][near][browser]") {
  Fixture f;
  if (f.browser.empty()) {
    WARN("skipped: chromium is not installed (scripts/setup installs it)");
    return;
  }
  std::string subs = slurp(fs::path(CQLINDEX_SOURCE_DIR) / "data" / "demo-submissions.pgn");
  for (auto [game, ply] : {std::pair<uint64_t, uint32_t>{10, 40}, {600, 30}})
    subs += setup_game("planted", plant(f.repository, game, ply).fen);
  const size_t matches = write_report(f.dir.path(), subs);
  CHECK(matches >= 5);
  const std::string dom = dump_dom(f.browser, f.dir.path(), f.dir.path() / "report.html");
  INFO(dom.substr(0, 2000));
  CHECK(occurrences(dom, "<article class=\"match\"") == matches);
  CHECK(occurrences(dom, "<svg class=\"board\"") == 5 + 2 * matches);  // each submission's, two per match
  CHECK(occurrences(dom, "<details class=\"matches\" open=\"\"") == 5);
  CHECK(dom.find("<span id=\"match-count\">" + std::to_string(matches) + "</span>") != std::string::npos);
  CHECK(dom.find("exact: rotated 90 degrees counterclockwise") != std::string::npos);  // the demo's three
  CHECK(dom.find("exact: shifted two files right") != std::string::npos);
  CHECK(dom.find("exact: mirrored left-right") != std::string::npos);
  CHECK(dom.find("distance 1: mirrored left-right") != std::string::npos);  // the planted ones
  CHECK(occurrences(dom, "class=\"differs\"") >= 4);                        // 1 square, outlined on both boards
  CHECK(dom.find("http") == std::string::npos);                             // nothing from the network
  CHECK(ink_of_screenshot(f.browser, f.dir.path(), f.dir.path() / "report.html") > 0.05);
}

TEST_CASE("similar --report in headless Chromium: a report without any match", "[similar][near][browser]") {
  Fixture f;
  if (f.browser.empty()) {
    WARN("skipped: chromium is not installed (scripts/setup installs it)");
    return;
  }
  CHECK(write_report(f.dir.path(), setup_game("nowhere", "QQQ5/8/8/8/8/8/8/k1K5 b - - 0 1")) == 0);
  const std::string dom = dump_dom(f.browser, f.dir.path(), f.dir.path() / "report.html");
  INFO(dom.substr(0, 2000));
  CHECK(occurrences(dom, "<article class=\"match\"") == 0);
  CHECK(occurrences(dom, "<svg class=\"board\"") == 1);
  CHECK(dom.find("No repository game within reach.") != std::string::npos);
  CHECK(dom.find("<span id=\"match-count\">0</span>") != std::string::npos);
  CHECK(ink_of_screenshot(f.browser, f.dir.path(), f.dir.path() / "report.html") > 0.01);
}

TEST_CASE("similar --report in headless Chromium: more than 500 matches start collapsed", "[similar][near][browser]") {
  Fixture f;
  if (f.browser.empty()) {
    WARN("skipped: chromium is not installed (scripts/setup installs it)");
    return;
  }
  // The initial position without White's e-pawn: one square from every game's first position.
  const size_t matches =
      write_report(f.dir.path(), setup_game("no e-pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1") +
                                     setup_game("planted", plant(f.repository, 10, 40).fen));
  REQUIRE(matches > 500);
  const std::string dom = dump_dom(f.browser, f.dir.path(), f.dir.path() / "report.html");
  INFO(dom.substr(0, 2000));
  CHECK(occurrences(dom, "<article class=\"match\"") == matches);
  CHECK(occurrences(dom, "<svg class=\"board\"") == 2 + 2 * matches);
  CHECK(occurrences(dom, "<details class=\"matches\"") == 2);
  CHECK(occurrences(dom, "<details class=\"matches\" open") == 0);  // collapsed: the page opens on the list
  CHECK(dom.find("each submission's list is collapsed") != std::string::npos);
  CHECK(dom.find("distance 1: as it stands") != std::string::npos);
  CHECK(dom.find("is within distance 1 of positions of 1005 of the 1005 repository games: a common position") !=
        std::string::npos);
  CHECK(ink_of_screenshot(f.browser, f.dir.path(), f.dir.path() / "report.html") > 0.01);
}
