#pragma once
// Internal to Keel: a hint to the caches, for a loop over many objects
// that each fill lines of their own (a fleet's boats): the lines a later
// object will read, asked for while the loop works on the present one. A
// hint only: no result depends on it.

#include <keel/config.hpp>

#include <cstddef>
#include <utility>

namespace keel::KEEL_ABI::detail {

/// The cache line the hints are counted in [bytes].
inline constexpr std::size_t kCacheLineBytes = 64;

/// Asks for the lines of the `Bytes` bytes at `p`: one at each `k` lines
/// from `p`, and the one of its last byte (where `p` starts within a
/// line). Always inlined: GCC takes a function of prefetches alone for one
/// without effects, and drops its calls.
template <std::size_t Bytes, std::size_t... k>
[[gnu::always_inline]] inline void prefetchLines(const char* p, std::index_sequence<k...> /*lines*/) {
  (__builtin_prefetch(p + k * kCacheLineBytes, 1), ...);
  __builtin_prefetch(p + (Bytes - 1), 1);
}

/// Asks for every cache line of the `Bytes` bytes at `p` (null: none), to
/// be written (what a boat's substep reads there it mostly writes too).
/// One instruction a line: the count is known, so the lines are asked for
/// without a loop.
template <std::size_t Bytes>
[[gnu::always_inline]] inline void prefetch(const void* p) {
  static_assert(Bytes > 0, "a hint for no bytes");
  if (p == nullptr) return;
  prefetchLines<Bytes>(static_cast<const char*>(p),
                       std::make_index_sequence<(Bytes + kCacheLineBytes - 1) / kCacheLineBytes>());
}

/// Asks for every cache line of the `bytes` bytes at `p` (a count known only
/// when running), to be written.
[[gnu::always_inline]] inline void prefetch(const void* p, std::size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (std::size_t k = 0; k < bytes; k += kCacheLineBytes) __builtin_prefetch(c + k, 1);
  if (bytes > 0) __builtin_prefetch(c + (bytes - 1), 1);
}

}  // namespace keel::KEEL_ABI::detail
