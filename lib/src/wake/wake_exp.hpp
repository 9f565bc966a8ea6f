#pragma once
// e^x of many doubles at once, each det::exp's bits (wake_exp_simd.cpp): the
// depth weights of a WakeField's sources and queries.

#include <keel/config.hpp>

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// x[i] = det::exp(x[i]) for i < count, several at a time (SIMD).
void expInPlace(double* x, std::size_t count);

}  // namespace keel::KEEL_ABI::detail
