// Dictionaries: `D[k]`, `D[k] = v`, `k ∊ D F`, `#D`, `unbind D[k]`. Entries live in the scanner's
// CrossGameState: a persistent dictionary (the default) keeps them from game to game, a local one is emptied
// at the start of each game.
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {
namespace {

// The key that the value of a key filter of this type stands for.
DictKey key_of(ValueType type, const Value& x) {
  DictKey k;
  switch (type) {
    case ValueType::Numeric: k.num = x.num; break;
    case ValueType::Position: k.num = x.pos; break;
    case ValueType::Set: k.set = x.set; break;
    default: k.str = x.str; break;
  }
  return k;
}

// Evaluates the key filter; false when it does not match (a set key may be empty).
bool eval_key(const Op& key, Ctx& ctx, DictKey& k) {
  Value x;
  if (!evaluate(key, ctx, x) && key.type != ValueType::Set) return false;
  k = key_of(key.type, x);
  return true;
}

}  // namespace

bool eval_dictionary(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::DictGet: {
      DictKey k;
      if (!eval_key(*op.kids[0], ctx, k)) return false;
      const Dictionary& d = ctx.state->dicts[size_t(op.var)];
      auto it = d.find(k);
      if (it == d.end()) return false;
      v = it->second;
      return op.type != ValueType::Set || v.set != 0;
    }
    case OpCode::DictAssign: {
      DictKey k;
      if (!eval_key(*op.kids[0], ctx, k)) return false;
      Value x;
      if (!evaluate(*op.kids[1], ctx, x) && op.kids[1]->type != ValueType::Set) return false;
      ctx.state->dicts[size_t(op.var)][k] = x;
      v = std::move(x);
      return true;
    }
    case OpCode::DictUnbind: {
      DictKey k;
      if (!eval_key(*op.kids[0], ctx, k)) return false;
      ctx.state->dicts[size_t(op.var)].erase(k);
      return true;
    }
    case OpCode::DictCount:
      v.num = int64_t(ctx.state->dicts[size_t(op.var)].size());
      return true;
    case OpCode::DictIterate: {
      // the keys in their order (numbers ascending, strings in byte order), taken before the body may change D
      std::vector<DictKey> keys;
      for (const auto& [k, value] : ctx.state->dicts[size_t(op.b)]) keys.push_back(k);
      const size_t var = size_t(op.var);
      bool any = false;
      Value tmp;
      for (const DictKey& k : keys) {
        ctx.step();
        Value& kv = ctx.vars[var];
        kv = Value{};
        kv.num = k.num;
        kv.set = k.set;
        kv.str = k.str;
        kv.pos = int32_t(k.num);
        ctx.bound[var] = 1;
        if (evaluate_smart(*op.kids[0], ctx, tmp)) any = true;
      }
      ctx.bound[var] = 0;
      return any;
    }
    default: return false;
  }
}

}  // namespace cqlindex::cql::eval
