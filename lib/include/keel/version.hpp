#pragma once
/// @file version.hpp
/// Keel's version.

#include <keel/config.hpp>

namespace keel::KEEL_ABI {
inline constexpr int kVersionMajor = 0;  ///< incompatible API changes
inline constexpr int kVersionMinor = 1;  ///< added features
inline constexpr int kVersionPatch = 0;  ///< fixes
}  // namespace keel::KEEL_ABI
