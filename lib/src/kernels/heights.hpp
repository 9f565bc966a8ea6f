#pragma once
// The sampling and heights stages' kernels (substep/sample_water.hpp): where the hull's vertices are on the water's
// axes, the water's height and velocity there, and each vertex's height above
// the water (docs/model.md, "Water sampling" and "The SIMD path").

#include <keel/water_sampling.hpp>
#include <keel/water_surface.hpp>

#include "kernels/hull_soa.hpp"

#include <cstddef>
#include <cstring>

namespace keel::KEEL_ABI::detail {

/// A range of values [lo, hi] (empty when lo > hi).
struct Extent {
  btScalar lo, hi;
};

/// What vertexHeights finds of the water heights.
struct VertexHeights {
  Extent water;            ///< their range [m] (meaningless when nonFinite > 0)
  std::size_t nonFinite;   ///< how many are NaN or infinite
  btScalar lowestAbove_m;  ///< the least height above the water: < 0 when a vertex is wet
};

/// h_i = centreUp + (x_i, y_i, z_i) . up - waterHeight_i [m], `up` in body axes, up to the end of the last
/// vector that holds a vertex (past it, only padding, which no triangle names: left as it was);
/// with `above_m`, the vertices' heights along up there too (the first term,
/// so that `waterHeight_i - above_i` is exactly `-h_i`).
[[nodiscard]] VertexHeights vertexHeights(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m,
                                          const btScalar* waterHeight_m, btScalar* h_m, btScalar* above_m = nullptr);

/// World coordinates of every vertex (i < vertexPadded) along the water's
/// axes, given in the body frame: u = btScalar(centreEast + double(p . east)),
/// v likewise along north [m] (one rounding: float keeps a boat's shape far
/// from the origin), and w = centreUp + p . up [m] unless `w_m` is null.
void worldCoordinates(const HullSoA& hull, const btScalar east[3], const btScalar north[3], const btScalar up[3],
                      double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* u_m, btScalar* v_m,
                      btScalar* w_m);

/// Each vertex's cell of a patch and its height, as patchHeights finds
/// them: a record of four btScalars per vertex (vertexPadded of them),
/// which patchVertexVelocities reads whole: the row-major index of the
/// cell's node (0, 0) (a ScalarIndex's bits), the fractions across it
/// along u and v rounded to btScalar (WaterPatch::velocity's), and the
/// height w = centreUp + p . up [m] (worldCoordinates'). Null: not wanted.
struct PatchCells {
  btScalar* record = nullptr;
  static constexpr std::size_t kRecord = 4;  ///< btScalars per vertex
  /// Vertex i's cell node, fractions and height.
  [[nodiscard]] ScalarIndex node(std::size_t i) const {
    ScalarIndex k;
    static_assert(sizeof k == sizeof(btScalar));
    std::memcpy(&k, record + kRecord * i, sizeof k);
    return k;
  }
  [[nodiscard]] btScalar a(std::size_t i) const { return record[kRecord * i + 1]; }
  [[nodiscard]] btScalar b(std::size_t i) const { return record[kRecord * i + 2]; }
  [[nodiscard]] btScalar w(std::size_t i) const { return record[kRecord * i + 3]; }
};

/// The water height under every vertex from a sampled patch:
/// WaterPatch::height of the vertex's horizontal position [m], the water's
/// axes given in the body frame; and the vertices' cells and heights into
/// `cells` unless it is null (patchVertexVelocities then need not find them
/// again), from `up` and `centreUp_m` as worldCoordinates. Written for
/// i < vertexPadded with `cells`, else up to the end of the last vector
/// that holds a vertex (past it, only padding).
void patchHeights(const HullSoA& hull, const WaterPatch& patch, const btScalar east[3], const btScalar north[3],
                  const btScalar up[3], double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* out_m,
                  PatchCells cells = {});

/// What the patch velocity kernel reads of a WaterPatch.
struct PatchVelocityView {
  const btScalar* velocity;                       ///< the nodes' velocities, [node][level][east, north, up] [m/s]
  const double* depths_m;                         ///< the levels' depths below the surface, increasing [m]
  std::size_t levels;                             ///< how many (at least 2)
  double side, inverseCell_pm, originI, originJ;  ///< nodes a side, 1 / cell [1/m], the origin's cell indices
};

/// WaterPatch::velocity at `count` points (u, v, w) [m] under the surface
/// heights `surface_m` [m], into `out`: the same bits, several points at a
/// time. Only when patch.hasVelocities().
void patchVelocities(const WaterPatch& patch, const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                     const btScalar* surface_m, std::size_t count, WaterVelocity* out);

/// The indices i < count with h_m[i] < 0 (the wet vertices) or stamp[i] ==
/// stampNow, in order, into `out`, which may be written up to a whole vector
/// past them (kListedPad); returns how many. `h_m` and `stamp` readable up
/// to a whole vector past count.
[[nodiscard]] std::size_t listVertices(const btScalar* h_m, const std::uint32_t* stamp, std::uint32_t stampNow,
                                       std::size_t count, std::uint32_t* out);

/// Where patchVertexVelocities finds the vertices: the hull, the water's
/// axes in body axes and the centre of mass along them (as worldCoordinates),
/// the water height over each vertex, and the vertices to answer.
struct VertexVelocityQuery {
  const HullSoA* hull;
  const btScalar *east, *north, *up;   ///< [3] each
  double centreEast_m, centreNorth_m;  ///< [m]
  btScalar centreUp_m;                 ///< [m]
  const btScalar* waterHeight_m;       ///< per vertex [m]
  const std::uint32_t* vertex;         ///< `count` indices, then copies of the first to a whole vector
  std::size_t increasing = 0;          ///< how many of the first indices increase (runs are read whole)
  PatchCells cells;                    ///< the vertices' cells from patchHeights on this patch, or null: found here
};

/// The patch's water velocity at the listed vertices in body axes, into
/// `out4` as (u, v, w, 0) at each vertex's index [m/s]: worldCoordinates, then
/// WaterPatch::velocities at the vertices under their water heights, then
/// velocitiesToBody, in one pass and the same bits as the three. A
/// non-finite velocity becomes zero; returns how many. Only when
/// patch.hasVelocities().
[[nodiscard]] std::size_t patchVertexVelocities(const WaterPatch& patch, const VertexVelocityQuery& query,
                                                std::size_t count, btScalar* out4);

/// `out[i] = wa x[i] + wb y[i]` for i below `count` (out may be x or y), in
/// vectors: the patch in time's blend of two samples (PatchSampler::blend),
/// each value the same bits as the scalar formula's.
void patchMix(const btScalar* x, const btScalar* y, std::size_t count, btScalar wa, btScalar wb, btScalar* out);

/// The water velocities `in` (water frame, count of them; readable up to
/// padded(count)) in body axes, whose water axes are east, north, up:
/// into `out4` as (u, v, w, 0) [m/s], the k-th at vertex[k], or at k
/// without a list (then `out4` holds padded(count) of them). A non-finite
/// one becomes zero; returns how many.
[[nodiscard]] std::size_t velocitiesToBody(const WaterVelocity* in, std::size_t count, const btScalar east[3],
                                           const btScalar north[3], const btScalar up[3], btScalar* out4,
                                           const std::uint32_t* vertex = nullptr);

}  // namespace keel::KEEL_ABI::detail
