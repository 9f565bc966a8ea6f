#pragma once
// The cut stage's kernels (substep/cut.cpp): the crossing triangles cut into the pieces
// under the water, and the water velocity at the centroids of the pieces and
// of the whole triangles (docs/model.md, "The cut" and "The SIMD path").

#include "kernels/buffers.hpp"
#include "kernels/pressure.hpp"

#include <algorithm>
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

/// What smallHullSums returns for a hull it does not take.
inline constexpr std::size_t kNotSmallHull = ~std::size_t(0);

/// vertexHeights, classifyTriangles, then cutAndSum, in one kernel and to
/// their bits, for a hull whose vertices fit one vector of the instruction
/// set's lanes and whose triangles fit two and one block of the pressure
/// sums' slots (the 12-triangle box in float on AVX2 and AVX-512): the
/// vertices' heights above the water into h_m and what they show into
/// `heights`, as vertexHeights (without the heights along up); the
/// pressure integral's sums into `sums` (`up` in body axes). Returns the
/// crossing triangles' count, their two-wet count in b.twoWetCrossing and
/// b.pieces' counts set as cutAndSum sets them; writes nothing else of `b`
/// (its triangles' depths and weights, the crossing list and the pieces
/// are left as they were). kNotSmallHull, and nothing written, for any
/// other hull.
[[nodiscard]] std::size_t smallHullSums(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m,
                                        const btScalar* waterHeight_m, btScalar* h_m, VertexHeights& heights,
                                        BoatBuffers& b, PressureSums& sums);

/// The pieces' slots for `count` crossing triangles, `twoWet` of them
/// with two wet corners (PieceBuffer). Inline: a small hull's substep
/// makes no call for it.
inline void countPieces(PieceBuffer& pieces, std::size_t count, std::size_t twoWet) {
  pieces.crossing = count;
  pieces.slots = padded(count);
  pieces.twoSlots = padded(std::min(count, twoWet));
}

/// The wet triangles' corners' pressure heads (b.head0, ...) from the
/// vertices' (b.head_m), 0 where the weight is 0 [m]: every triangle of the
/// blocks that are not wholly dry.
void triangleHeads(const HullSoA& hull, BoatBuffers& b);

/// Water velocity at each triangle's centroid, the mean of its corners'
/// (b.water_mps), body axes [m/s]: every triangle of the blocks that
/// are not wholly dry.
void triangleWaterVelocity(const HullSoA& hull, const BoatBuffers& b, btScalar* u, btScalar* v, btScalar* w);

}  // namespace keel::KEEL_ABI::detail
