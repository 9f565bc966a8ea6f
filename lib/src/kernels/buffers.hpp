#pragma once
// The streams of pieces the kernels sum over, and a substep's working memory.
//
// Two streams of pieces go through the same kernels: the hull's triangles
// (weight 1 for those wholly under the water, 0 for the rest) and the few
// pieces the waterline cuts out of the crossing triangles (weight 1). The
// formulas are those of hydrostatics.hpp and hydrodynamics.hpp, which stay the
// readable reference the tests compare this path with (docs/model.md, "The SIMD
// path").

#include <keel/water_surface.hpp>

#include "kernels/heights.hpp"
#include "kernels/hull_soa.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// Pieces in structure-of-arrays form (body frame), `count` a multiple of kPad.
struct PieceStream {
  std::size_t count = 0;
  const btScalar *ax, *ay, *az, *bx, *by, *bz, *cx, *cy, *cz;  ///< corners [m]
  const btScalar *gx, *gy, *gz;                                ///< centroids (a + b + c) / 3 [m]
  const btScalar *d0, *d1, *d2;                                ///< depth at each corner [m] (0 where weight is 0)
  const btScalar *sx, *sy, *sz;                                ///< area vector [m^2]
  const btScalar *csx, *csy, *csz;                             ///< centroid x area vector [m^3]
  const btScalar* area;                                        ///< [m^2]
  const btScalar* inverseArea;                                 ///< 1 / area, 0 when the area is 0 [1/m^2]
  const btScalar* weight;                                      ///< 1: a submerged piece; 0: skip
  const btScalar *ux, *uy, *uz;                                ///< water velocity at the centroid [m/s]
  /// Pressure head at each corner [m] (0 where weight is 0), or null: the
  /// pressure is then the depth's (PressureModel::StaticHead).
  const btScalar *e0 = nullptr, *e1 = nullptr, *e2 = nullptr;
};

/// Per-piece results of flowSums that slamming reads afterwards (vx null:
/// only the rates are kept). Body axes.
struct PieceFlowOut {
  btScalar *vx, *vy, *vz;  ///< hull velocity relative to the water at the centroid [m/s]
  btScalar* cosTheta;      ///< relative velocity direction . outward normal (0: no flow)
  btScalar* rate;          ///< swept volume rate into the water, max(0, v . S) [m^3/s]
};

/// The stream of the hull's whole triangles, with per-boat depths [m],
/// weights and water velocities [m/s] (body axes).
[[nodiscard]] PieceStream triangleStream(const HullSoA& hull, const btScalar* d0, const btScalar* d1,
                                         const btScalar* d2, const btScalar* weight, const btScalar* u,
                                         const btScalar* v, const btScalar* w);

/// The pieces the waterline cuts out of the crossing triangles, as a
/// stream: slot k (< slots) is crossing triangle k's first piece, slot
/// slots + k (k < twoSlots) its second (weight 0 when it has only one).
/// Arrays reserved once; body frame.
struct PieceBuffer {
  std::size_t crossing = 0;  ///< crossing triangles cut
  std::size_t slots = 0;     ///< padded(crossing)
  std::size_t twoSlots = 0;  ///< padded(crossing triangles with two wet corners, which come first)
  /// The PieceStream fields [m, m^2, m^3, 1/m^2, m/s].
  std::vector<btScalar> ax, ay, az, bx, by, bz, cx, cy, cz, gx, gy, gz, d0, d1, d2, sx, sy, sz, csx, csy, csz, area,
      inverseArea, weight, ux, uy, uz;
  /// The pieces' corners' pressure heads, when the cut is asked for them [m].
  std::vector<btScalar> e0, e1, e2;
  /// The PieceFlowOut fields, and slamming's Gamma per piece [m/s^2].
  std::vector<btScalar> vx, vy, vz, cosTheta, rate, gamma;
  /// Per crossing triangle: its emerged fraction and its waterline segment (p, q) [m].
  std::vector<btScalar> emerged, px, py, pz, qx, qy, qz;
  /// Room for a hull of `triangleCount` triangles.
  void reserve(std::size_t triangleCount);
  [[nodiscard]] std::size_t pieceCount() const { return slots + twoSlots; }
  [[nodiscard]] PieceStream stream() const;
  [[nodiscard]] PieceFlowOut flowOut();
};

/// Groups of four in BoatBuffers::stage.
inline constexpr int kStageGroups = 7;

/// A block of kPad triangles that the water crosses, or wholly above or below it.
/// Entries past the end of BoatBuffers::listed: a whole vector of the widest
/// instruction set's btScalar lanes (patchVertexVelocities).
inline constexpr std::size_t kListedPad = 16;

inline constexpr std::uint32_t kBlockMixed = 0, kBlockDry = 1, kBlockWet = 2;

/// The fast path's working memory for one substep of one boat (body frame;
/// vertex arrays at least vertexPadded long, triangle arrays trianglePadded).
/// One per thread (threadBuffers): nothing in it outlives the substep, so a
/// fleet's boats share their thread's, which stays in cache, instead of each
/// streaming its own from memory.
struct BoatBuffers {
  // Per vertex.
  std::vector<btScalar> u_m, v_m, w_m;  ///< world coordinates along the water's axes
  /// Water velocity, body axes: u, v, w and a zero, four per vertex [m/s]
  /// (one 16-byte load for a triangle's corner in float).
  std::vector<btScalar> water_mps;
  std::vector<btScalar> queryU_m, queryV_m, queryW_m;  ///< the wet vertices' coordinates
  std::vector<btScalar> querySurface_m;                ///< the water height at them, query order [m]
  std::vector<std::uint32_t> queried, stamp;           ///< the wet vertices; a stamp per vertex
  /// The vertices asked for the water velocity (water_velocity.cpp), then
  /// kListedPad copies of the first: whole vectors can be read.
  std::vector<std::uint32_t> listed;
  std::uint32_t stampNow = 0;
  std::vector<WaterVelocity> velocity;  ///< the surface's answers, query order
  /// Each vertex's cell of the patch and height (patchHeights), read
  /// again by patchVertexVelocities: PatchCells::kRecord per vertex.
  std::vector<btScalar> cellRecord;
  [[nodiscard]] PatchCells cells() { return {cellRecord.data()}; }
  // Per vertex, for PressureModel::WavePressure [m].
  std::vector<btScalar> above_m;      ///< height along up (vertexHeights)
  std::vector<btScalar> head_m;       ///< pressure head of the wet vertices (0 at the dry ones)
  std::vector<btScalar> queryHead_m;  ///< the surface's answers, query order
  // Per hull triangle.
  std::vector<btScalar> corner0, corner1, corner2;    ///< the corners' heights (classifyTriangles) [m]
  std::vector<btScalar> d0, d1, d2, weight, emerged;  ///< classifyTriangles: depths [m], weight, emerged fraction
  std::vector<btScalar> waterU, waterV, waterW;       ///< water velocity at the centroid, body axes [m/s]
  std::vector<btScalar> head0, head1, head2;          ///< wet triangles' corners' pressure heads (else 0) [m]
  std::vector<ScalarIndex> crossing;                  ///< crossing triangles, two-wet ones first
  std::vector<ScalarIndex> crossingOneWet;            ///< classifyTriangles' second list
  std::size_t twoWetCrossing = 0;                     ///< crossing triangles with two corners wet
  std::vector<std::uint32_t> blockKind;               ///< per block of kPad triangles: kBlockDry, ...
  /// cutCrossing's copies of the crossing triangles' records, in crossing
  /// order, a group of four per triangle each: (a, A), (b, h0), (c, h1),
  /// (S, h2), and the corners' water velocities and pressure heads
  /// (u0, e0), (u1, e1), (u2, e2) [m, m^2, m/s].
  btScalar* stage[kStageGroups] = {};
  std::vector<btScalar> stageMemory;
  PieceBuffer pieces;  ///< the cut pieces as a stream
  /// Grows (never shrinks) to fit `hull`: allocates only for a hull larger
  /// than any this thread has seen.
  void fit(const HullSoA& hull);
  /// Whether the arrays already fit `hull` (fit would do nothing).
  [[nodiscard]] bool fits(const HullSoA& hull) const {
    return d0.size() >= hull.trianglePadded && u_m.size() >= hull.vertexPadded;
  }
  [[nodiscard]] PieceStream triangles(const HullSoA& hull) const {
    return triangleStream(hull, d0.data(), d1.data(), d2.data(), weight.data(), waterU.data(), waterV.data(),
                          waterW.data());
  }
};

/// This thread's BoatBuffers, as they are.
[[nodiscard]] BoatBuffers& threadBufferStorage();

/// This thread's BoatBuffers, fitted to `hull` (the test inline: a call
/// only to grow them).
[[nodiscard]] inline BoatBuffers& threadBuffers(const HullSoA& hull) {
  BoatBuffers& b = threadBufferStorage();
  if (!b.fits(hull)) b.fit(hull);
  return b;
}

}  // namespace keel::KEEL_ABI::detail
