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

/// Asks for the line of `p` into the second-level cache, not the first
/// (__builtin_prefetch's read with locality 2: prefetcht1 on x86, whatever
/// the -march): a far boat ahead asks for about 70 lines, which the 32 to
/// 48 KB first-level cache would take from the boat being worked on, and
/// whose requests fill its few outstanding-miss slots so that the loop
/// waits on them (docs/performance.md, "Many boats", has the measures: a
/// fleet's hints into the first level ran slower than none). A read hint:
/// where the target has PREFETCHW a write hint becomes prefetchw, into the
/// first level; and a line no other core holds arrives writable anyway.
[[gnu::always_inline]] inline void prefetchLine(const char* p) { __builtin_prefetch(p, 0, 2); }

/// Asks for the lines of the `Bytes` bytes at `p`: one at each `k` lines
/// from `p`, and the one of its last byte (where `p` starts within a
/// line). Always inlined: GCC takes a function of prefetches alone for one
/// without effects, and drops its calls.
template <std::size_t Bytes, std::size_t... k>
[[gnu::always_inline]] inline void prefetchLines(const char* p, std::index_sequence<k...> /*lines*/) {
  (prefetchLine(p + k * kCacheLineBytes), ...);
  prefetchLine(p + (Bytes - 1));
}

/// Asks for every cache line of the `Bytes` bytes at `p` (null: none).
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
/// when running).
[[gnu::always_inline]] inline void prefetch(const void* p, std::size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (std::size_t k = 0; k < bytes; k += kCacheLineBytes) prefetchLine(c + k);
  if (bytes > 0) prefetchLine(c + (bytes - 1));
}

}  // namespace keel::KEEL_ABI::detail
