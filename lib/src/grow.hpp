#pragma once
// Internal to Keel: grow-only working memory, which a query or a substep
// sizes to the most it has needed and then reuses without allocating.

#include <keel/config.hpp>

#include <cstddef>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// `v` grown to hold at least `count` elements; never shrunk.
template <class T>
void growTo(std::vector<T>& v, std::size_t count) {
  if (v.size() < count) v.resize(count);
}

}  // namespace keel::KEEL_ABI::detail
