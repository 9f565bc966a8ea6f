#pragma once
// Refusing a propulsion part's settings with a message that names the field,
// its value and the range it must lie in.

#include <keel/config.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI::detail {

/// Throws std::invalid_argument "<where>: <field> = <value> is outside
/// <range>" unless lo <= value <= hi (NaN is outside every range).
inline void requireRange(const char* where, const char* field, double value, double lo, double hi, const char* range) {
  if (value >= lo && value <= hi) return;
  std::ostringstream message;
  message << where << ": " << field << " = " << value << " is outside " << range;
  throw std::invalid_argument(message.str());
}

}  // namespace keel::KEEL_ABI::detail
