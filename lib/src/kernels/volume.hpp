#pragma once
// The floodwater's volume kernel (flood/level.cpp): sums over wet pieces
// that give the volume under a plane and its centroid, and the section's
// area and centroid (docs/flooding.md, "The model", "The free surface").

#include "kernels/buffers.hpp"

#include <cstddef>
#include <span>

namespace keel::KEEL_ABI::detail {

/// Sums over wet pieces, closed by their section in a plane through `o`:
/// the pyramids o -> piece (S . (g - o) / 3 each, centroid (3 g + o) / 4)
/// and the section's area and first moment by the divergence theorem.
/// Kept as 3 V [m^3], 12 times V's first moment [m^4], the section's area
/// -sum S . up [m^2] and sum -(S . up) g [m^3], in double.
struct PyramidSums {
  double volume3_m3 = 0, moment12_m4[3] = {0, 0, 0};
  double section_m2 = 0, sectionMoment_m3[3] = {0, 0, 0};
};

/// Pieces [begin, end) of a stream.
struct PieceRange {
  const PieceStream* stream;
  std::size_t begin, end;
};

/// Adds the pieces of `ranges` (weight 0: none) to `sums`, `o` a point on
/// their plane and `up` its normal (body frame), in one pass (the lanes are
/// added across once). The arrays are read in whole vectors: readable up to
/// each range's end rounded up to kPad.
void addPyramids(std::span<const PieceRange> ranges, const double o[3], const double up[3], PyramidSums& sums);

}  // namespace keel::KEEL_ABI::detail
