// Entry metadata <-> bytes: unsigned LEB128 varints for numbers and lengths (signed ones zigzagged).
#include "engine/yacpdb/entry_codec.h"

#include <cstdint>
#include <vector>

namespace cqlindex::yacpdb {
namespace {

class Writer {
 public:
  void number(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void signed_number(int64_t v) { number((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void text(std::string_view s) {
    number(s.size());
    out_.append(s);
  }
  void list(const std::vector<std::string>& items) {
    number(items.size());
    for (const auto& s : items) text(s);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool number(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) return false;
      const auto byte = static_cast<uint8_t>(in_.front());
      in_.remove_prefix(1);
      v |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  }
  bool signed_number(int64_t& v) {
    uint64_t u;
    if (!number(u)) return false;
    v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
    return true;
  }
  bool integer(int& v) {
    int64_t x;
    if (!signed_number(x)) return false;
    v = static_cast<int>(x);
    return true;
  }
  bool text(std::string& s) {
    uint64_t n;
    if (!number(n) || n > in_.size()) return false;
    s.assign(in_.substr(0, n));
    in_.remove_prefix(n);
    return true;
  }
  bool skip_text() {
    uint64_t n;
    if (!number(n) || n > in_.size()) return false;
    in_.remove_prefix(n);
    return true;
  }
  bool list(std::vector<std::string>& items) {
    uint64_t n;
    if (!number(n) || n > in_.size()) return false;
    items.resize(n);
    for (auto& s : items)
      if (!text(s)) return false;
    return true;
  }
  bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

}  // namespace

std::string encode_entry_metadata(const Entry& e, bool with_text) {
  Writer w;
  w.number(e.format == Entry::Format::Pgn);
  w.signed_number(e.number);
  w.signed_number(e.line);
  w.number(e.pieces.size());
  for (const DiagramPiece& p : e.pieces) {
    w.number(static_cast<uint8_t>(p.color));
    w.text(p.code);
    w.text(p.specs);
    w.signed_number(p.square);
  }
  w.number(e.fen.has_value());
  if (e.fen) w.text(*e.fen);
  w.text(e.stipulation);
  for (const auto* l : {&e.authors, &e.judges, &e.options, &e.keywords, &e.comments, &e.reprints, &e.reprint_types})
    w.list(*l);
  for (const auto* s : {&e.source, &e.source_id, &e.issue_id, &e.tourney, &e.distinction, &e.intended_solutions})
    w.text(*s);
  w.signed_number(e.date.year);
  w.signed_number(e.date.month);
  w.signed_number(e.date.day);
  w.number(e.id.has_value());
  if (e.id) w.signed_number(*e.id);
  w.text(with_text ? std::string_view(e.text) : std::string_view());
  return w.take();
}

std::optional<Entry> decode_entry_metadata(std::string_view bytes, bool with_text, bool with_pieces) {
  Reader r(bytes);
  Entry e;
  uint64_t flag, count;
  if (!r.number(flag)) return std::nullopt;
  e.format = flag ? Entry::Format::Pgn : Entry::Format::Yaml;
  if (!r.integer(e.number) || !r.integer(e.line) || !r.number(count) || count > bytes.size()) return std::nullopt;
  e.pieces.resize(with_pieces ? count : 0);
  for (uint64_t i = 0; i < count; ++i) {
    DiagramPiece skipped;
    DiagramPiece& p = with_pieces ? e.pieces[i] : skipped;
    uint64_t color;
    if (!r.number(color) || !r.text(p.code) || !r.text(p.specs) || !r.integer(p.square)) return std::nullopt;
    p.color = static_cast<char>(color);
  }
  if (!r.number(flag)) return std::nullopt;
  if (flag && !r.text(e.fen.emplace())) return std::nullopt;
  if (!r.text(e.stipulation)) return std::nullopt;
  for (auto* l : {&e.authors, &e.judges, &e.options, &e.keywords, &e.comments, &e.reprints, &e.reprint_types})
    if (!r.list(*l)) return std::nullopt;
  for (auto* s : {&e.source, &e.source_id, &e.issue_id, &e.tourney, &e.distinction, &e.intended_solutions})
    if (!r.text(*s)) return std::nullopt;
  if (!r.integer(e.date.year) || !r.integer(e.date.month) || !r.integer(e.date.day) || !r.number(flag))
    return std::nullopt;
  if (flag) {
    int64_t id;
    if (!r.signed_number(id)) return std::nullopt;
    e.id = id;
  }
  if (!(with_text ? r.text(e.text) : r.skip_text()) || !r.done()) return std::nullopt;
  return e;
}

}  // namespace cqlindex::yacpdb
