#pragma once
// The cut stage's kernels (substep/cut.cpp): the crossing triangles cut into the pieces
// under the water, and the water velocity at the centroids of the pieces and
// of the whole triangles (docs/model.md, "The cut" and "The SIMD path").

#include "kernels/buffers.hpp"
#include "kernels/pressure.hpp"

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// What cutCrossing gives of each piece: what its reader needs, and no
/// more.
enum class CutOutput {
  /// The centroids, area vectors and weights: what a volume needs
  /// (flood/level.cpp).
  Volume,
  /// And the corners, their depths (and pressure heads) and the areas: what
  /// the pressure integral needs.
  Pressure,
  /// And the centroids' moments of the area vectors, the inverse areas, the
  /// water velocities, and each crossing triangle's emerged fraction and
  /// waterline segment: what the hydrodynamic terms, the effects, the added
  /// mass and the wake need.
  Full,
};

/// Cuts b's first `count` crossing triangles (classifyTriangles' order;
/// docs/model.md, "The cut", lane by lane) into b.pieces, from their
/// corners' heights; with `velocities`, also the water velocity at each
/// piece's centroid from the vertices' (b.water_mps), interpolated
/// along the edges as the positions are; with `heads`, the pressure heads
/// at the pieces' corners from the wet vertices' (b.head_m), as the depths.
/// Only what `output` asks for.
void cutCrossing(const HullSoA& hull, BoatBuffers& b, std::size_t count, bool velocities, bool heads,
                 CutOutput output = CutOutput::Full);

/// Whether cutAndSum can take `count` crossing triangles of `hull`: their
/// pieces fit one block of the pressure sums' slots, and the whole
/// triangles one block of the sums (a small hull and cut, in float).
[[nodiscard]] bool cutSums(const HullSoA& hull, std::size_t count);

/// The pressure integral's sums into `sums` (pressureSums', the same bits) of b's whole
/// triangles (classifyTriangles') and of the pieces of its first `count`
/// crossing triangles, cut as cutCrossing cuts them (without velocities or
/// heads) and summed as they are cut instead of stored; `up` in body axes.
/// b.pieces' counts are set, its pieces left as they were. Only when
/// cutSums(hull, count). (Written in place: see pressureResult.)
void cutAndSum(const HullSoA& hull, BoatBuffers& b, std::size_t count, const btScalar up[3], PressureSums& sums);

/// The wet triangles' corners' pressure heads (b.head0, ...) from the
/// vertices' (b.head_m), 0 where the weight is 0 [m]: every triangle of the
/// blocks that are not wholly dry.
void triangleHeads(const HullSoA& hull, BoatBuffers& b);

/// Water velocity at each triangle's centroid, the mean of its corners'
/// (b.water_mps), body axes [m/s]: every triangle of the blocks that
/// are not wholly dry.
void triangleWaterVelocity(const HullSoA& hull, const BoatBuffers& b, btScalar* u, btScalar* v, btScalar* w);

}  // namespace keel::KEEL_ABI::detail
