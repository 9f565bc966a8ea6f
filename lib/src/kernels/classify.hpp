#pragma once
// The classify stage's kernel (substep/cut.cpp): each hull triangle wholly wet, wholly dry or
// crossing the waterline (docs/model.md, "The SIMD path").

#include "kernels/buffers.hpp"
#include "kernels/heights.hpp"

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// Classifies every triangle by its corners' heights h_m (vertexHeights):
/// into b, depths and weight 1 when wholly submerged (else 0 and 0),
/// emerged fraction 1 when wholly dry (else 0), the corners' heights (only
/// of blocks the water crosses), and the crossing triangles' indices, those
/// with two corners wet first. Returns their count. A block of kPad
/// triangles whose box lies above or below the range of the water heights
/// `water_m` (vertexHeights' result) is classified whole. `up` in body axes.
std::size_t classifyTriangles(const HullSoA& hull, const btScalar* h_m, const btScalar up[3], btScalar centreUp_m,
                              Extent water_m, BoatBuffers& b);

}  // namespace keel::KEEL_ABI::detail
