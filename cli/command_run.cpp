// `cqlindex run QUERY.cql [-i IN] [-o OUT] [CQL options]`: parse options -> load query -> parse/bind ->
// GCC 12 reports false -Wrestrict positives on std::string concatenation at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
// (-parse: print the bound tree) -> evaluate (not implemented yet).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/run_options.h"
#include "engine/cql/error.h"
#include "engine/cql/lexer.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

namespace cqlindex::cli {
namespace {

constexpr const char* kRunUsage =
    "usage: cqlindex run QUERY.cql [-i IN.pgn] [-o OUT.pgn] [--index DIR | --no-index] [CQL options]\n"
    "  CQL 6.2 options take one or two dashes: -parse -cql F -similarposition [nosort] [notransform] F.pgn\n"
    "  -gamenumber N [M] -matchcount N [M] -variations -silent -quiet -threads N -flipcolor ...\n";

}  // namespace

int run_command(int argc, char** argv) {
  RunOptions opt;
  if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << kRunUsage;
    return kExitOk;
  }
  if (auto err = parse_run_options(argc, argv, opt)) {
    std::cerr << "cqlindex run: " << *err << "\n" << kRunUsage;
    return kExitUsage;
  }
  if (opt.query_file.empty()) {
    std::cerr << "cqlindex run: no query file given\n" << kRunUsage;
    return kExitUsage;
  }
  std::ifstream in(opt.query_file, std::ios::binary);
  if (!in || std::filesystem::is_directory(opt.query_file)) {
    std::cerr << "cqlindex run: cannot read query file '" << opt.query_file << "'\n";
    return kExitUsage;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string source = ss.str();

  cql::Query query;
  try {
    if (opt.lex_only) {
      for (const cql::Token& t : cql::lex(source))
        std::cout << t.line << ":" << t.column << " " << cql::describe(t) << "\n";
      return kExitOk;
    }
    query = cql::parse_query(source);
  } catch (const cql::CqlError& e) {
    std::cerr << cql::format_error(e, opt.query_file, source);
    return kExitUsage;
  }
  // command-line preamble filters and transforms
  for (const std::string& text : opt.preamble) {
    try {
      cql::NodePtr pre = cql::parse_filters(text, query);
      auto compound = cql::make_node(cql::NodeKind::Compound, query.body->type);
      for (auto& c : pre->kids) compound->add("arg", std::move(c.node));
      for (auto& c : query.body->kids) compound->add("arg", std::move(c.node));
      query.body = std::move(compound);
    } catch (const cql::CqlError& e) {
      std::cerr << cql::format_error(e, "command line", text);
      return kExitUsage;
    }
  }
  for (auto t = opt.transforms.rbegin(); t != opt.transforms.rend(); ++t) {
    auto tr = cql::make_node(cql::NodeKind::Transform, query.body->type);
    tr->text = *t;
    tr->add("body", std::move(query.body));
    auto compound = cql::make_node(cql::NodeKind::Compound, tr->type);
    compound->add("arg", std::move(tr));
    query.body = std::move(compound);
  }
  if (opt.parse_only) {
    std::cout << cql::print_canonical(query);
    return kExitOk;
  }
  std::string input = opt.input.empty() ? query.header.input : opt.input;
  if (input.empty()) {
    std::cerr << "cqlindex run: no input: give -i FILE.pgn or 'input' in the cql(...) header\n";
    return kExitUsage;
  }
  if (!std::filesystem::is_regular_file(input)) {
    std::cerr << "cqlindex run: cannot read input '" << input << "'\n";
    return kExitInput;
  }
  // TEMPORARY: the evaluator (a later issue) plugs in here with `query` and `opt`.
  std::cerr << "cqlindex run: evaluation not implemented yet (only -parse works in this build)\n";
  return kExitUsage;
}

}  // namespace cqlindex::cli
