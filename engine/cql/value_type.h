#pragma once
// The value types of CQL filters.
#include <cstdint>

namespace cqlindex::cql {

enum class ValueType : uint8_t { Logical, Set, Numeric, Position, String, Dictionary };

// Lower-case name used by the printers ("set", "numeric", ...).
const char* type_name(ValueType t);

}  // namespace cqlindex::cql
