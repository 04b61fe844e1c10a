#include "engine/yacpdb/solution_text.h"

#include <cctype>
#include <tuple>
#include <vector>

#include "engine/text/regex.h"

namespace cqlindex::yacpdb {

namespace {

// Whether the whole token matches one of the fixed patterns below; a token so long that the match would need
// more work than a match may take is no move and no command.
bool whole_match(const text::Regex& re, std::string_view token, std::vector<text::RegexGroup>& groups) {
  try {
    return re.match_whole(token, &groups);
  } catch (const text::RegexTooCostly&) {
    return false;
  }
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

int square_of(std::string_view s) { return (s[1] - '1') * 8 + (s[0] - 'a'); }

// Words of the solution text that carry no move: they are implied by the depths.
bool is_filler_word(std::string_view w) {
  static const char* words[] = {"threat:",   "threat",    "Threat:",  "Threat", "zugzwang.", "zugzwang",
                                "Zugzwang.", "Zugzwang",  "but",      "But",    "blocus",    "waiting",
                                "Drohung:",  "Zugzwang:", "refutes.", "refutes"};
  for (const char* x : words)
    if (w == x) return true;
  return false;
}

// Parses the markers after a move ("+", "#", "=", "!", "?", "ep.", "[+wPf2]", "[A]") into m; false on garbage.
bool parse_suffix(std::string_view rest, TextMove& m) {
  size_t i = 0;
  while (i < rest.size()) {
    char c = rest[i];
    if (c == '+' || c == '#') {
      char mark = (c == '#' || m.check == "#") ? '#' : '+';
      m.check.assign(1, mark);
      ++i;
    } else if (c == '=') {
      m.check = "=";
      ++i;
      while (i < rest.size() && rest[i] == '=') ++i;
    } else if (c == '!' || c == '?') {
      m.annotation += c;
      ++i;
    } else if (rest.substr(i, 3) == "ep.") {
      m.en_passant = true;
      i += 3;
    } else if (rest.substr(i, 4) == "e.p.") {
      m.en_passant = true;
      i += 4;
    } else if (c == '[') {
      size_t close = rest.find(']', i);
      if (close == std::string_view::npos) return false;
      std::string_view inner = rest.substr(i + 1, close - i - 1);
      bool label = inner.size() == 1 && std::isalpha(static_cast<unsigned char>(inner[0]));
      if (!label) m.extras += std::string(rest.substr(i, close - i + 1));  // [A]/[a] are theme labels
      i = close + 1;
    } else {
      return false;
    }
  }
  return true;
}

// One move token; nullopt when it is not a move.
std::optional<TextMove> parse_move_token(std::string_view tok) {
  TextMove m;
  std::string_view t = tok;
  m.text = std::string(t);
  for (const char* castle : {"0-0-0", "O-O-O", "0-0", "O-O"}) {
    std::string_view c(castle);
    if (t.substr(0, c.size()) == c) {
      m.castle = c.size() == 5 ? 2 : 1;
      m.piece = "K";
      return parse_suffix(t.substr(c.size()), m) ? std::optional<TextMove>(m) : std::nullopt;
    }
  }
  static const text::Regex re("([A-Z][A-Z]?)?([a-h]?[1-8]?)([-*x:])?([a-h][1-8])(?:=([A-Z][A-Z]?))?(.*)");
  std::vector<text::RegexGroup> g;
  if (!whole_match(re, t, g)) return std::nullopt;
  auto mt = [&](size_t i) { return std::string(g[i].in(t)); };
  m.piece = mt(1);
  std::string from = mt(2);
  std::string sep = mt(3);
  m.to = square_of(mt(4));
  m.promotion = mt(5);
  if (from.size() == 2)
    m.from = square_of(from);
  else if (from.size() == 1 && from[0] >= 'a')
    m.from_file = from[0] - 'a';
  else if (from.size() == 1)
    m.from_rank = from[0] - '1';
  m.capture = sep == "*" || sep == "x" || sep == ":";
  if (sep == "-" && from.size() != 2) return std::nullopt;
  if (!parse_suffix(mt(6), m)) return std::nullopt;
  return m;
}

}  // namespace

int transformed_square(BoardTransform t, int square) {
  const int f = square % 8, r = square / 8;
  switch (t) {
    case BoardTransform::Rotate90: return f * 8 + (7 - r);
    case BoardTransform::Rotate180: return (7 - r) * 8 + (7 - f);
    case BoardTransform::Rotate270: return (7 - f) * 8 + r;
    case BoardTransform::MirrorA1H1: return r * 8 + (7 - f);
    case BoardTransform::MirrorA1A8: return (7 - r) * 8 + f;
    case BoardTransform::MirrorA1H8: return (7 - f) * 8 + (7 - r);
    case BoardTransform::MirrorA8H1: return f * 8 + r;
  }
  return square;
}

namespace {

// The words a board-transform twin command takes after its name ("rotate 90": 1), or 0 for other tokens.
int board_command_words(std::string_view tok) {
  std::string lower;
  for (char ch : tok) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (lower == "rotate" || lower == "mirror") return 1;
  if (lower == "shift") return 2;  // "shift a1 ==> a2": two squares (the arrow is read as a third word)
  return 0;
}

// True for "Imitator" (any case): its squares follow as words ("Imitator c5", "Imitator a7 b7", "Imitator a7b7").
bool is_imitator_command(std::string_view tok) {
  std::string lower;
  for (char ch : tok) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return lower == "imitator";
}

// True for a word of squares only ("c5", "a7b7").
bool is_square_list(std::string_view word) {
  if (word.empty() || word.size() % 2) return false;
  for (size_t i = 0; i < word.size(); i += 2)
    if (word[i] < 'a' || word[i] > 'h' || word[i + 1] < '1' || word[i + 1] > '8') return false;
  return true;
}

std::optional<TwinCommand> parse_twin_command(std::string_view tok) {
  static const text::Regex move_re("([wbns])([A-Z][A-Z0-9]?)([a-h][1-8])-->([a-h][1-8])");
  static const text::Regex exch_re("([wbns])([A-Z][A-Z0-9]?)([a-h][1-8])<-->([wbns])([A-Z][A-Z0-9]?)([a-h][1-8])");
  static const text::Regex add_re("([+-])([wbns])([A-Z][A-Z0-9]?)([a-h][1-8])");
  static const text::Regex rotate_re("rotate (90|180|270)", true);
  static const text::Regex mirror_re("mirror (a1<-->h1|a1<-->a8|a1<-->h8|a8<-->h1)", true);
  static const text::Regex shift_re("shift ([a-h][1-8]) (?:==> )?([a-h][1-8])", true);
  static const text::Regex polish_re("polishtype", true);
  static const text::Regex imitator_re("imitator((?: (?:[a-h][1-8])+)+)", true);
  auto color = [](const std::string& c) { return c == "s" ? 'b' : c[0]; };  // German output: s = schwarz
  TwinCommand c;
  c.text = std::string(tok);
  std::vector<text::RegexGroup> g;
  auto m = [&](size_t i) { return std::string(g[i].in(tok)); };
  if (whole_match(move_re, tok, g)) {
    c.kind = TwinCommand::Kind::Move;
    c.color = color(m(1));
    c.piece = m(2);
    c.from = square_of(m(3));
    c.to = square_of(m(4));
  } else if (whole_match(exch_re, tok, g)) {
    c.kind = TwinCommand::Kind::Exchange;
    c.color = color(m(1));
    c.piece = m(2);
    c.from = square_of(m(3));
    c.color2 = color(m(4));
    c.piece2 = m(5);
    c.to = square_of(m(6));
  } else if (whole_match(add_re, tok, g)) {
    c.kind = m(1) == "+" ? TwinCommand::Kind::Add : TwinCommand::Kind::Remove;
    c.color = color(m(2));
    c.piece = m(3);
    c.from = square_of(m(4));
  } else if (whole_match(rotate_re, tok, g)) {
    c.kind = TwinCommand::Kind::Transform;
    c.transform = m(1) == "90" ? BoardTransform::Rotate90 : m(1) == "180" ? BoardTransform::Rotate180
                                                                           : BoardTransform::Rotate270;
  } else if (whole_match(mirror_re, tok, g)) {
    std::string axis = m(1);
    for (char& ch : axis) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    c.kind = TwinCommand::Kind::Transform;
    c.transform = axis == "a1<-->h1"   ? BoardTransform::MirrorA1H1
                  : axis == "a1<-->a8" ? BoardTransform::MirrorA1A8
                  : axis == "a1<-->h8" ? BoardTransform::MirrorA1H8
                                       : BoardTransform::MirrorA8H1;
  } else if (whole_match(shift_re, tok, g)) {
    std::string from = m(1), to = m(2);
    for (char& ch : from) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (char& ch : to) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    c.kind = TwinCommand::Kind::Shift;
    c.from = square_of(from);
    c.to = square_of(to);
  } else if (whole_match(polish_re, tok, g)) {
    c.kind = TwinCommand::Kind::PolishType;
  } else if (whole_match(imitator_re, tok, g)) {
    c.kind = TwinCommand::Kind::Imitator;
    std::string squares = m(1);
    for (char& ch : squares) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (size_t i = 0; i < squares.size(); ++i)
      if (squares[i] != ' ') {
        c.squares.push_back(square_of(squares.substr(i, 2)));
        ++i;
      }
  }
  return c;
}

class SolutionParser {
 public:
  explicit SolutionParser(std::string_view text) : s_(text) {
    out_.root = std::make_unique<SolutionNode>();
    out_.root->kind = SolutionNode::Kind::Root;
    stack_.push_back(out_.root.get());
  }

  SolutionParse run() {
    while (!out_.error) {
      skip_blanks();
      if (pos_ >= s_.size()) break;
      step();
    }
    return std::move(out_);
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
  SolutionParse out_;
  std::vector<SolutionNode*> stack_;  // path from the root to the last node
  SolutionNode* last_ = nullptr;      // the last node created (comments attach to it)
  int pending_depth_ = -1;            // from a move number not yet used
  int last_move_depth_ = -1;          // for unnumbered moves
  std::vector<std::tuple<std::vector<SolutionNode*>, SolutionNode*, int>> saved_;  // state at each open '('

  void skip_blanks() {
    while (pos_ < s_.size() && is_blank(s_[pos_])) ++pos_;
  }

  std::pair<int, int> line_col(size_t at) const {
    int line = 1, col = 1;
    for (size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else if ((static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80) {
        ++col;
      }
    }
    return {line, col};
  }

  void error(size_t at, const std::string& message) {
    auto [line, col] = line_col(at);
    out_.error = std::to_string(line) + ":" + std::to_string(col) + ": " + message;
  }

  // The blank-delimited token at pos_ (a comment brace also ends it: "+{(E)}").
  std::string_view token() const {
    size_t end = pos_;
    while (end < s_.size() && !is_blank(s_[end]) && (end == pos_ || s_[end] != '{')) ++end;
    return s_.substr(pos_, end - pos_);
  }

  // "+a)", "b)", "z12)" at pos_: the twin label's length, else 0.
  size_t twin_label_length() const {
    size_t i = pos_;
    if (i < s_.size() && s_[i] == '+') ++i;
    size_t start = i;
    if (i < s_.size() && s_[i] >= 'a' && s_[i] <= 'z') {
      ++i;
      if (s_[i - 1] == 'z')
        while (i < s_.size() && is_digit(s_[i])) ++i;
    }
    if (i == start || i >= s_.size() || s_[i] != ')') return 0;
    return i + 1 - pos_;
  }

  // Digits and a '.' at pos_ ("12." starts a move number; "90" of "rotate 90" does not).
  bool at_move_number() const {
    size_t i = pos_;
    while (i < s_.size() && is_digit(s_[i])) ++i;
    return i > pos_ && i < s_.size() && (s_[i] == '.' || s_.substr(i, 3) == "\xE2\x80\xA6");
  }

  void step() {
    size_t at = pos_;
    char c = s_[pos_];
    if (c == '{') {
      size_t close = s_.find('}', pos_);
      if (close == std::string_view::npos) return error(at, "unterminated comment");
      SolutionNode* target = last_ ? last_ : out_.root.get();
      if (!target->comment.empty()) target->comment += ' ';
      target->comment += std::string(s_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
      return;
    }
    if (size_t n = twin_label_length()) return read_twin(n);
    // "(2.Qa7+ Kb5 3.Sd4+ Rxd4#)", "(4. f8=N+? Kc8!)": a written threat or variation. Its moves find their
    // place by depth; the closing parenthesis returns to where the text was before it (so "4... Kc8" after a
    // variation of move 4 continues the main line, not the variation).
    if (c == '(') {
      saved_.push_back({stack_, last_, last_move_depth_});
      ++pos_;
      return;
    }
    if (c == ')') {
      close_parenthesis();
      ++pos_;
      return;
    }
    std::string_view tok = token();
    bool castling = tok.substr(0, 3) == "0-0";
    if (is_digit(c) && !castling) return read_move_number();
    if (is_filler_word(tok)) {
      pos_ += tok.size();
      return;
    }
    // markers written apart from their move: "Sf2-g4 + !", "Rh3 =", "c4xd3 ep."
    if (last_ && last_->kind == SolutionNode::Kind::Move && pending_depth_ < 0 &&
        tok.find_first_not_of("+#=!?") == std::string_view::npos) {
      parse_suffix(tok, last_->move);
      pos_ += tok.size();
      return;
    }
    if (last_ && last_->kind == SolutionNode::Kind::Move && (tok == "ep." || tok == "e.p.")) {
      last_->move.en_passant = true;
      pos_ += tok.size();
      return;
    }
    if (tok == "...") {  // "1. ..." : the black half-move
      if (pending_depth_ >= 0 && pending_depth_ % 2 == 0) ++pending_depth_;
      pos_ += tok.size();
      return;
    }
    size_t closing = 0;  // "Rxd4#)": parentheses closed right after the move
    while (closing < tok.size() && tok[tok.size() - 1 - closing] == ')') ++closing;
    std::string_view written = tok.substr(0, tok.size() - closing);
    auto move = parse_move_token(written);
    if (!move) return error(at, "cannot read '" + std::string(written) + "' as a move");
    int depth;
    if (pending_depth_ >= 0) {
      depth = pending_depth_;
      pending_depth_ = -1;
    } else if (last_move_depth_ >= 0) {
      depth = last_move_depth_ + 1;
    } else {
      return error(at, "a move without a move number: '" + std::string(tok) + "'");
    }
    pos_ += tok.size();
    add_move(*move, depth, at);
    for (size_t i = 0; i < closing; ++i) close_parenthesis();
  }

  void close_parenthesis() {
    if (saved_.empty()) return;
    std::tie(stack_, last_, last_move_depth_) = saved_.back();
    saved_.pop_back();
  }

  void read_move_number() {
    size_t at = pos_;
    int n = 0;
    while (pos_ < s_.size() && is_digit(s_[pos_])) {
      n = n * 10 + (s_[pos_] - '0');
      if (n > 10000) return error(at, "move number too large");
      ++pos_;
    }
    if (s_.substr(pos_, 3) == "\xE2\x80\xA6") {  // "1…": the ellipsis stands for the dots
      pos_ += 3;
      if (n == 0) return error(at, "move number 0 (retro play) is not supported");
      pending_depth_ = 2 * n + 1;
      return;
    }
    if (pos_ >= s_.size() || s_[pos_] != '.') return error(at, "expected '.' after the move number");
    ++pos_;
    int depth = 2 * n;
    if (s_.substr(pos_, 2) == "..") {
      pos_ += 2;
      while (pos_ < s_.size() && s_[pos_] == '.') ++pos_;
      depth = 2 * n + 1;
    } else if (s_.substr(pos_, 3) == "\xE2\x80\xA6") {  // U+2026 horizontal ellipsis
      pos_ += 3;
      depth = 2 * n + 1;
    } else if (pos_ < s_.size() && s_[pos_] == '-' && (pos_ + 1 >= s_.size() || is_blank(s_[pos_ + 1]))) {
      ++pos_;  // German "2.- Kd6"
      depth = 2 * n + 1;
    }
    if (n == 0) return error(at, "move number 0 (retro play) is not supported");
    pending_depth_ = depth;
  }

  void read_twin(size_t label_length) {
    size_t at = pos_;
    std::string_view label = s_.substr(pos_, label_length - 1);
    pos_ += label_length;
    if (pending_depth_ >= 0) return error(at, "a twin label after a move number");
    auto twin = std::make_unique<SolutionNode>();
    twin->kind = SolutionNode::Kind::Twin;
    twin->depth = 1;
    twin->twin_continued = label.front() == '+';
    twin->twin_label = std::string(twin->twin_continued ? label.substr(1) : label);
    std::tie(twin->line, twin->column) = line_col(at);
    // commands run up to the first move number (or the next twin)
    for (;;) {
      skip_blanks();
      if (pos_ >= s_.size() || at_move_number() || twin_label_length() || s_[pos_] == '{') break;
      std::string_view tok = token();
      std::string command(tok);
      pos_ += tok.size();
      // Popeye prints the board transforms as several words: "rotate 90", "mirror a1<-->h1", "shift a1 ==> a2".
      for (int words = board_command_words(tok); words > 0; --words) {
        skip_blanks();
        if (pos_ >= s_.size() || s_[pos_] == '{' || twin_label_length()) break;
        std::string_view word = token();
        command += ' ';
        command += word;
        pos_ += word.size();
        if (word == "==>") ++words;  // Popeye's input writes "shift a1 a2", its output adds the arrow
      }
      // "Imitator c5 d6": the squares that follow (one word each, or run together as in Popeye's input)
      while (is_imitator_command(tok)) {
        skip_blanks();
        if (pos_ >= s_.size() || at_move_number() || twin_label_length()) break;
        std::string_view word = token();
        if (!is_square_list(word)) break;
        command += ' ';
        command += word;
        pos_ += word.size();
      }
      twin->twin_commands.push_back(*parse_twin_command(command));
    }
    stack_.resize(1);
    last_ = twin.get();
    stack_.push_back(twin.get());
    out_.root->children.push_back(std::move(twin));
    out_.has_twins = true;
    last_move_depth_ = -1;
  }

  void add_move(const TextMove& move, int depth, size_t at) {
    if (depth < 2) return error(at, "a move at depth " + std::to_string(depth));
    while (stack_.back()->depth >= depth) stack_.pop_back();
    if (stack_.back()->kind == SolutionNode::Kind::Root) {
      auto twin = std::make_unique<SolutionNode>();
      twin->kind = SolutionNode::Kind::Twin;
      twin->depth = 1;
      twin->twin_label = "a";
      stack_.push_back(twin.get());
      out_.root->children.push_back(std::move(twin));
    }
    while (stack_.back()->depth < depth - 1) {
      auto null = std::make_unique<SolutionNode>();
      null->kind = SolutionNode::Kind::Null;
      null->depth = stack_.back()->depth + 1;
      std::tie(null->line, null->column) = line_col(at);
      SolutionNode* raw = null.get();
      stack_.back()->children.push_back(std::move(null));
      stack_.push_back(raw);
    }
    auto node = std::make_unique<SolutionNode>();
    node->kind = SolutionNode::Kind::Move;
    node->depth = depth;
    node->move = move;
    std::tie(node->line, node->column) = line_col(at);
    SolutionNode* raw = node.get();
    stack_.back()->children.push_back(std::move(node));
    stack_.push_back(raw);
    last_ = raw;
    last_move_depth_ = depth;
  }
};

}  // namespace

SolutionParse parse_solution_text(std::string_view text) { return SolutionParser(text).run(); }

size_t node_count(const SolutionNode& n) {
  size_t count = 1;
  for (const auto& c : n.children) count += node_count(*c);
  return count;
}

}  // namespace cqlindex::yacpdb
