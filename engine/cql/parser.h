#pragma once
// The CQL 6.2 parser: a backtracking recursive-descent parser over the token list that types every node
// as it builds it. CQL's grammar is type-directed (`:` only follows a position, `#` picks a dictionary,
// set or string, a set argument is "whatever parses at this level and is a set"), so parsing and binding
// (variable resolution, types, function expansion) happen in one pass, with the same precedence levels
// and the same error positions as CQL 6.2. The bound tree (node.h) is its output.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/error.h"
#include "engine/cql/query.h"
#include "engine/cql/token.h"

namespace cqlindex::cql {

// Returns true when `t` is one of the 15 direction keywords, up ... anydirection (parser_sets.cpp).
bool is_direction(const Token& t);

class Parser {
 public:
  Parser(std::string_view source, std::vector<Token> tokens, Query& query)
      : source_(source), toks_(std::move(tokens)), q_(query) {
    split_dictionary_keys();
  }

  void parse_header();       // cql( ... )
  NodePtr parse_body(bool may_be_empty = false);  // the top-level filters, then end of input
  void finish();             // checks done once the whole tree exists

 private:
  // --- token access
  std::string_view source_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Query& q_;
  int depth_ = 0;
  long steps_ = 0;  // primitives tried; bounds the backtracking on pathological input
  // A set expression a path already parsed while looking for a dash after it (path_dash), or the right side a
  // dash tried and refused (dash_from); the next dash_tie_x at the same token, in the same scope, starts from it
  // instead of parsing the same tokens again, which made nested paths (`path {path {...}}`, `A--path A--path
  // ...`) cost 2^depth. The scope is part of the key: a function body is parsed again at each call with other
  // arguments, and a loop's body sees its loop variable, so the same tokens there may read differently.
  struct Parsed {
    NodePtr node;
    size_t begin = 0, end = 0;  // its tokens
    uint64_t scope = 0;         // scope_generation_ when it was parsed
    bool with_arrows = false;   // a dash_tie_x result (path_dash): a set may have taken `-> B` after it
  };
  std::optional<Parsed> reparse_;
  // The parsed expression if it starts at the cursor, in this scope, and is what dash_tie_x (or, with
  // `arrows` false, attackarrow_x) would parse there; the cursor moves past it.
  NodePtr take_reparse(bool arrows);
  // Keeps `node`, parsed from token `begin` to the cursor in this scope, for take_reparse.
  void keep_reparse(NodePtr node, size_t begin, bool with_arrows) {
    reparse_ = Parsed{std::move(node), begin, pos_, scope_generation_, with_arrows};
  }

  const Token& cur() const { return toks_[pos_]; }
  const Token& peek(size_t k = 1) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  bool eof() const { return cur().kind == TokenKind::End; }
  void forward() { if (!eof()) ++pos_; }
  size_t save() const { return pos_; }
  void restore(size_t p) { pos_ = p; }
  bool keyword(const char* k);
  bool keywords(const char* k1, const char* k2);
  bool special(const char* s);
  bool at_special(const char* s) const { return cur().is_special(s); }
  [[noreturn]] void error(const std::string& message) const;
  [[noreturn]] void error_at(const Token& t, const std::string& message) const;
  NodePtr mk(NodeKind k, ValueType t, const Token& at) const { return make_node(k, t, at.line, at.column); }

  // --- precedence levels (lowest first), as in CQL 6.2
  NodePtr node();             // or
  NodePtr or_x();             // and
  NodePtr and_x();            // in
  NodePtr in_x();             // < <= == != > >= [<] ...
  NodePtr relop_x();          // + -
  NodePtr addop_x();          // * / %
  NodePtr mulop_x();          // S -- T
  NodePtr dash_tie_x();       // -> <-
  NodePtr attackarrow_x();    // |
  NodePtr union_x();          // &
  NodePtr intersect_x();      // attacks attackedby
  NodePtr attack_x();         // s[i:j] s ~~ "re"
  NodePtr substring_x();      // p : F
  NodePtr primitive();
  NodePtr complex();          // every named filter

  // --- typed argument helpers
  NodePtr match_set();           // set at the level just below |
  NodePtr match_setparameter();  // set at the level of :
  NodePtr match_numeric();       // numeric at the level of +
  NodePtr match_string();        // string at the level of +
  NodePtr match_sortable();      // numeric or string
  NodePtr require(NodePtr n, const std::string& message) const;
  bool match_range(Node& owner);          // adds "low"/"high" children; false if no range
  bool range_constituent(NodePtr& out);
  std::vector<NodePtr> some_nodes();
  NodePtr relation(const Token& op, NodePtr l, NodePtr r);
  NodePtr arithmetic(const Token& op, NodePtr l, NodePtr r);
  NodePtr count_of(NodePtr set) const;
  NodePtr trailing_search(NodePtr n);

  // --- named filters: the dispatch at a token (parser_filters.cpp)
  NodePtr special_filter();     // { ( . [] ~ # - ///, the symbolic loops
  NodePtr keyword_filter();     // a keyword: the simple ones here, then each family below
  NodePtr compound();
  NodePtr parens();
  NodePtr number();
  NodePtr piece_designator();
  // --- the families of keyword filters, one file each (parser_<family>.cpp): each returns the filter at a keyword
  // of its own, nullptr without moving at any other
  NodePtr control_filter();     // parser_control.cpp: not if loop while assert notransform square piece function
  NodePtr find_filter();        // parser_find.cpp: find sort
  NodePtr echo_filter();        // parser_echo.cpp: echo consecutivemoves child position lca distance ...
  NodePtr string_filter();      // parser_strings.cpp: comment message str uppercase ... indexof writefile
  NodePtr dictionary_filter();  // parser_dictionary.cpp: dictionary, local/persistent dictionary, string k in D
  NodePtr variable_filter();    // parser_variables.cpp: persistent atomic unbind isbound isunbound
  NodePtr set_filter();         // parser_sets.cpp: ray xray pin light dark between makesquare
  NodePtr number_filter();      // parser_numbers.cpp: abs sqrt max min
  NodePtr move_filter();        // parser_moves.cpp: move legal countmoves previous line path
  NodePtr game_info_filter();   // parser_game_info.cpp: tags, result, players, fen, comments, similarposition
  NodePtr hhdb_filter();        // parser_hhdb.cpp: hhdb cql_assertvariations
  // control (parser_control.cpp)
  NodePtr symbolic_loop();
  NodePtr square_or_piece_loop();
  // Returns the square (or piece) loop at `start` over `var` (declared as v) in `domain`, its body parsed with v
  // bound; `no_body` is the error when no filter follows.
  NodePtr loop_over(const Token& start, const Token& var, int v, bool piece, bool all, NodePtr domain,
                    const std::string& no_body);
  NodePtr function_definition();
  NodePtr function_call();
  // variables (parser_variables.cpp)
  NodePtr assignment();
  NodePtr variable_use();
  NodePtr piece_assign();
  // find, echo, transforms, strings (parser_find.cpp, parser_echo.cpp, parser_transform.cpp, parser_strings.cpp)
  NodePtr find();
  NodePtr sort();
  NodePtr echo();
  NodePtr consecutive_moves();
  NodePtr transform();
  NodePtr string_converter();   // comment message str ///
  // dictionaries (parser_dictionary.cpp)
  NodePtr dictionary(bool local = false);  // `local dictionary D` passes local
  NodePtr dictionary_iteration(const Token& start, const Token& var, int dict);
  enum class KeyUse { Read, Assign, Unbind };
  void dictionary_key(int dict, const Node& key, const Token& at, KeyUse use);  // fixes or checks the key type
  void split_dictionary_keys();  // `D[e1]`: the bracketed token after a dictionary name becomes '[' key ']'
  // sets (parser_sets.cpp)
  NodePtr vector_filter();      // up down ... anydirection
  NodePtr ray();
  NodePtr pin();
  // game information (parser_game_info.cpp, parser_similar.cpp)
  NodePtr settag();
  void check_tag_name(bool setting) const;
  NodePtr fen();
  NodePtr similar_position();
  // hhdb (parser_hhdb.cpp)
  NodePtr hhdb();
  NodePtr expand(const std::string& text, const Token& at, const std::string& key);

  // --- moves and sequences (parser_moves.cpp)
  NodePtr move();
  NodePtr dash_from(NodePtr left, const Token& dash, bool in_path);
  NodePtr dash_promotion(const Token& eq);
  void check_legal_dash(const Node& dash, const Token& at) const;
  NodePtr legal_dash();
  NodePtr count_moves();
  NodePtr previous_dash();
  NodePtr line();
  NodePtr seq_constituents(const char* direction, std::vector<NodePtr>& out);
  NodePtr seq_constituent(const char* direction);
  NodePtr path();
  NodePtr path_constituent();
  NodePtr path_dash();
  NodePtr wildcard_token(NodePtr inner);
  bool wildcard_after() const;  // the token after the cursor ends a constituent

  // --- variables and functions
  int find_variable(const std::string& name) const;
  int declare(const std::string& name, VariableKind kind, ValueType type, const Token& at);
  NodePtr variable_node(int index, const Token& at) const;
  struct Function {
    std::vector<std::string> params;
    size_t body_begin, body_end;  // token range of the body braces
  };
  std::map<std::string, Function> functions_;
  std::vector<std::map<std::string, const Node*>> arg_frames_;  // pass-by-name arguments
  std::vector<int> active_loop_vars_;  // square/piece/position variables bound by an enclosing filter
  std::vector<bool> var_assigned_;     // variable set by an assignment somewhere
  uint64_t scope_generation_ = 0;      // changes whenever an argument frame or a loop variable comes or goes
  void push_loop_var(int v) { active_loop_vars_.push_back(v); ++scope_generation_; }
  void pop_loop_var() { active_loop_vars_.pop_back(); ++scope_generation_; }
  void push_arg_frame(std::map<std::string, const Node*> frame) { arg_frames_.push_back(std::move(frame)); ++scope_generation_; }
  void pop_arg_frame() { arg_frames_.pop_back(); ++scope_generation_; }
  std::string similar_file_;          // the submissions file of the first similarposition
  bool string_arguments_ = false;     // reading comment(...)'s arguments: a string after a tag filter is one
  bool path_started_ = false;        // a path constituent was read (an empty line now ends the path)
  std::optional<CqlError> unbound_;    // first use of a loop variable outside its loop (reported after parsing)
  friend struct ParserAccess;
};

}  // namespace cqlindex::cql
