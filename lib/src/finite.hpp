#pragma once
// Internal to Keel: whether a vector holds only finite values, the one
// test every input check and the substep's guards share.

#include <keel/config.hpp>

#include <LinearMath/btVector3.h>

#include <cmath>

namespace keel::KEEL_ABI::detail {

/// Whether every component of `v` is finite.
[[nodiscard]] inline bool isFinite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

}  // namespace keel::KEEL_ABI::detail
