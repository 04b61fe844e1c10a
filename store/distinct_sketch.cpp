// HyperLogLog (Flajolet et al. 2007) with linear counting for small counts (Heule et al. 2013).
#include "store/distinct_sketch.h"

#include <algorithm>
#include <cmath>

namespace cqlindex::store {

void DistinctSketch::merge(const DistinctSketch& other) {
  for (size_t i = 0; i < kRegisters; ++i) registers_[i] = std::max(registers_[i], other.registers_[i]);
}

uint64_t DistinctSketch::estimate() const {
  constexpr double m = double(kRegisters);
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double sum = 0;
  size_t zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -int(r));
    zeros += r == 0;
  }
  double e = alpha * m * m / sum;
  if (e <= 2.5 * m && zeros > 0) e = m * std::log(m / double(zeros));  // few hashes: count the empty registers
  return static_cast<uint64_t>(std::llround(e));
}

std::string DistinctSketch::to_text() const {
  std::string out(kRegisters, '0');
  for (size_t i = 0; i < kRegisters; ++i) out[i] = static_cast<char>('0' + registers_[i]);  // ranks <= 53: '0'..'e'
  return out;
}

std::optional<DistinctSketch> DistinctSketch::from_text(std::string_view text) {
  if (text.size() != kRegisters) return std::nullopt;
  DistinctSketch s;
  for (size_t i = 0; i < kRegisters; ++i) {
    const int r = text[i] - '0';
    if (r < 0 || r > int(64 - kIndexBits + 1)) return std::nullopt;
    s.registers_[i] = static_cast<uint8_t>(r);
  }
  return s;
}

}  // namespace cqlindex::store
