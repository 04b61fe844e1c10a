// Compiling `path` (eval_path.cpp): kids = focus (or nullptr), max (or nullptr), constituents...; options in
// Op::pieces (PathFlag), title in text, range in a..b when flag.
#include <map>

#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_path(const Node& n) {
  if (n.kind == NodeKind::PathInfo) return op(OpCode::PathInfo, n);  // text: pathstart / pathlastposition
  if (n.kind != NodeKind::Path) return nullptr;
  auto o = op(OpCode::Path, n);
  static const std::map<Option, uint16_t> bits = {
      {Option::Primary, kPathPrimary}, {Option::FirstMatch, kPathFirstMatch},
      {Option::KeepAllBest, kPathKeepAllBest}, {Option::NestBan, kPathNestBan}, {Option::PiecePath, kPathPiecePath},
      {Option::Verbose, kPathVerbose}, {Option::Quiet, kPathQuiet}, {Option::FocusCapture, kPathFocusCapture},
      {Option::SingleColor, kPathSingleColor}};
  o->pieces = 0;
  for (Option opt : n.options) {
    auto it = bits.find(opt);
    if (it != bits.end()) o->pieces |= it->second;
  }
  o->flag = range(n, *o);
  o->kids.push_back(child(n, Role::Focus));
  o->kids.push_back(child(n, Role::Max));
  all_kids(n, *o, Role::Arg);
  return o;
}

}  // namespace cqlindex::cql::eval
