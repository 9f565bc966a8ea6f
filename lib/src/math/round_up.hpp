#pragma once
// Internal to Keel: counts rounded up to whole vectors (tables padded for
// SIMD kernels).

#include <keel/config.hpp>

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// `n` rounded up to a whole number of `multiple`s (`multiple` > 0).
[[nodiscard]] constexpr std::size_t roundUp(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace keel::KEEL_ABI::detail
