#pragma once
// A hash of numbers' bits for the tests that check two runs give the same
// bits (determinism, rollback, the surfaces on every instruction set).
#include <keel/water_surface.hpp>

#include <LinearMath/btVector3.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace keel::test {

/// FNV-1a, 64-bit, over the bytes of each value.
struct Fnv1a {
  std::uint64_t hash = 14695981039346656037ull;
  template <class T>
  void add(const T& value) {
    static_assert(std::is_arithmetic_v<T>, "a number: a struct's padding has no fixed bytes");
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof value);
    for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
  }
  void add(const btVector3& v) {  // x, y, z: the fourth lane is padding
    add(v.x()), add(v.y()), add(v.z());
  }
  void add(const WaterVelocity& v) { add(v.east_mps), add(v.north_mps), add(v.up_mps); }
  template <class T>
  void add(const std::complex<T>& z) {  // real, then imaginary, as the type lays them out
    add(z.real()), add(z.imag());
  }
  template <class T>
  void addAll(const std::vector<T>& values) {
    for (const T& v : values) add(v);
  }
};

}  // namespace keel::test
