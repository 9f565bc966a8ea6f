#pragma once
// The per-substep fast path (issue 5, point 3): the hull in structure-of-
// arrays form in its own body frame, and SIMD kernels (Google Highway, the
// widest instruction set the CPU has, chosen at run time) that evaluate
// Kerner's hydrostatic and hydrodynamic sums over many triangles per
// instruction.
//
// Why the body frame: a whole hull triangle's corners, area vector and
// centroid never change there, so nothing is rotated per vertex; only the
// up axis, the boat's velocities and the water's velocities are turned into
// it, and the sums are turned back to world axes once per boat.
//
// Two streams of pieces go through the same kernels: the hull's triangles
// (weight 1 for those wholly under the water, 0 for the rest) and the few
// pieces the waterline cuts out of the crossing triangles (weight 1). The
// formulas are those of hydrostatics.hpp and hydrodynamics.hpp, which stay
// the readable reference the tests compare this path with.

#include <keel/hull.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/water_sampling.hpp>
#include <keel/water_surface.hpp>

#include <LinearMath/btScalar.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace keel::detail {

/// Signed integer as wide as btScalar: the gather instructions index with it.
using ScalarIndex = std::conditional_t<sizeof(btScalar) == 4, std::int32_t, std::int64_t>;

/// Every kernel array is a multiple of this many entries long: the lanes of
/// the widest vector (16 floats or 8 doubles in 64 bytes).
inline constexpr std::size_t kPad = 16;
[[nodiscard]] inline std::size_t padded(std::size_t n) { return (n + kPad - 1) / kPad * kPad; }

/// A hull in structure-of-arrays form, body frame [m]. The triangles are in
/// the kernels' own order (`triangle` maps back to the hull's), then padding
/// entries: those have zero area (the kernels skip them by that) and use
/// vertex 0.
struct HullSoA {
  std::size_t vertexCount = 0, vertexPadded = 0, triangleCount = 0;
  std::vector<std::uint32_t> triangle;  ///< each entry's index in Hull::triangles(), ~0 for padding
  std::size_t trianglePadded = 0;       ///< entries, padding included (a multiple of kPad)
  std::vector<btScalar> x, y, z;                             ///< vertices [m]
  /// Each triangle's corners, its vertex indices packed i0 | i1 << 21 | i2 << 42: one load for three.
  std::vector<std::uint64_t> corners;
  static constexpr int kCornerBits = 21;
  static constexpr std::uint64_t kCornerMask = (std::uint64_t(1) << kCornerBits) - 1;
  static constexpr std::size_t kMaxVertices = std::size_t(1) << kCornerBits;  ///< Hull rejects more
  /// Three vertex indices (each < kMaxVertices) in one word.
  [[nodiscard]] static constexpr std::uint64_t pack(std::uint64_t i0, std::uint64_t i1, std::uint64_t i2) {
    return i0 | i1 << kCornerBits | i2 << (2 * kCornerBits);
  }
  /// Corner k (0, 1, 2) of a packed word.
  [[nodiscard]] static constexpr std::size_t corner(std::uint64_t packed, int k) {
    return std::size_t((packed >> (k * kCornerBits)) & kCornerMask);
  }
  std::vector<btScalar> ax, ay, az, bx, by, bz, cx, cy, cz;  ///< triangle corners' positions [m]
  std::vector<btScalar> gx, gy, gz;                          ///< triangle centroids [m]
  std::vector<btScalar> sx, sy, sz, area;                    ///< area vector S = n A, area A [m^2]
  std::vector<btScalar> csx, csy, csz;                       ///< centroid x area vector [m^3]
  std::vector<btScalar> inverseArea;                         ///< 1 / A [1/m^2] (0 for padding)
  /// What the waterline cut needs of a triangle, one record of four groups
  /// of four: (a, A), (b, 0), (c, 0), (S, 0) [m, m^2].
  static constexpr std::size_t kCutRecord = 16;
  std::vector<btScalar> cutRecord;
  /// Per block of kPad entries: the box around its triangles' corners
  /// (x, y, z of the lowest, then of the highest corner) [m].
  std::vector<btScalar> blockLow, blockHigh;
  btScalar blockReach_m = 0;  ///< no corner is farther from the origin [m]
  explicit HullSoA(const Hull& hull);
};

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
};

/// Per-piece results of flowSums that slamming reads afterwards (vx null:
/// only the rates are kept).
struct PieceFlowOut {
  btScalar *vx, *vy, *vz;  ///< hull velocity relative to the water at the centroid [m/s]
  btScalar* cosTheta;      ///< relative velocity direction . outward normal (0: no flow)
  btScalar* rate;          ///< swept volume rate into the water, max(0, v . S) [m^3/s]
};

/// Sums of the pressure integral (hydrostatics.cpp, integratePressure):
/// sum S (sum d), sum m x S, sum (S . up) m, sum A, sum (S . up)(sum d^2 + (sum d)^2).
struct PressureSums {
  double force[3] = {0, 0, 0};
  double moment[3] = {0, 0, 0};
  double buoyancyMoment[3] = {0, 0, 0};
  double area = 0;
  double depthIntegral = 0;
};

/// The hydrostatic result of the pressure sums (integratePressure's last
/// step): force, torque, volume, wetted area, centre of buoyancy and depth
/// integral in the frame of the sums, whose up axis is `up`.
[[nodiscard]] HydrostaticResult pressureResult(const PressureSums& sums, btScalar density_kgpm3, btScalar gravity_mps2,
                                               const btVector3& up);

/// A force and torque sum in body axes.
struct BodyForce {
  double force[3] = {0, 0, 0};
  double torque[3] = {0, 0, 0};
  BodyForce& operator+=(const BodyForce& o);
};

/// Slamming's per-boat factors.
struct SlammingParameters {
  btScalar stopFactor = 0;     ///< 2 m / (S dt) [kg/(m^2 s)]
  btScalar inverseCutoff = 0;  ///< 1 / Gamma_max [s^2/m]
  btScalar power = 2;          ///< p
};

/// What flowSums needs besides the pieces (body axes).
struct FlowParameters {
  btScalar linearVelocity[3];   ///< of the centre of mass [m/s]
  btScalar angularVelocity[3];  ///< [rad/s]
  /// The water velocity [m/s] of every piece when `waterPerPiece` is false
  /// (the stream's ux, uy, uz are then not read).
  bool waterPerPiece = true;
  btScalar water[3] = {0, 0, 0};
  btScalar inverseDt = 0;  ///< 1 / dt [1/s], for slamming (FlowStream::previousRate)
  SlammingParameters slamming;
  bool viscous = false, pressureDrag = false;
  btScalar inverseReferenceSpeed = 1;                                                   ///< 1 / vr [s/m]
  btScalar pressureLinear = 0, pressureQuadratic = 0, pressureFalloff = btScalar(0.5);  ///< [Pa], [Pa], f_P
  btScalar suctionLinear = 0, suctionQuadratic = 0, suctionFalloff = btScalar(0.5);     ///< [Pa], [Pa], f_S
};

/// One stream of pieces for flowSums, and where its per-piece results go.
struct FlowStream {
  PieceStream pieces;
  PieceFlowOut out;
  /// Slamming in the same pass, for whole triangles only (a piece's own
  /// swept rate is then its triangle's): each one's swept rate at the last
  /// substep, or null for none.
  const btScalar* previousRate = nullptr;
};

/// What flowSums returns: skin friction without its factor 1/2 rho Cf (Cf
/// needs the mean water velocity, which is one of these sums), pressure drag,
/// and the area-weighted water velocity.
struct FlowSums {
  BodyForce viscousPerHalfRhoCf;    ///< sum -A |v|^2 v_t / |v_t| and its moment [m^4/s^2, m^5/s^2]
  BodyForce pressureDrag;           ///< [N], [N m]
  BodyForce slamming;               ///< of the streams with previousRate set [N], [N m]
  double waterArea[3] = {0, 0, 0};  ///< sum A u [m^3/s]
  double area = 0;                  ///< sum A [m^2]
};

/// Air's per-boat factors (body axes).
struct AirParameters {
  btScalar airVelocity[3];      ///< centre of mass relative to the air [m/s]
  btScalar angularVelocity[3];  ///< [rad/s]
  btScalar half = 0;            ///< 1/2 rho_air C_air [kg/m^3]
};

/// A range of values [lo, hi] (empty when lo > hi).
struct Extent {
  btScalar lo, hi;
};

/// What vertexHeights finds of the water heights.
struct VertexHeights {
  Extent water;              ///< their range [m] (meaningless when nonFinite > 0)
  std::size_t nonFinite;     ///< how many are NaN or infinite
  btScalar lowestAbove_m;    ///< the least height above the water: < 0 when a vertex is wet
};

/// h_i = centreUp + (x_i, y_i, z_i) . up - waterHeight_i for i < hull.vertexPadded [m].
[[nodiscard]] VertexHeights vertexHeights(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m,
                                          const btScalar* waterHeight_m, btScalar* h_m);

/// World coordinates of every vertex (i < vertexPadded) along the water's
/// axes, given in the body frame: u = btScalar(centreEast + double(p . east)),
/// v likewise along north [m] (one rounding: float keeps a boat's shape far
/// from the origin), and w = centreUp + p . up [m] unless `w_m` is null.
void worldCoordinates(const HullSoA& hull, const btScalar east[3], const btScalar north[3], const btScalar up[3],
                      double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* u_m, btScalar* v_m,
                      btScalar* w_m);

/// The water height under every vertex (i < vertexPadded) from a sampled
/// patch: WaterPatch::height of the vertex's horizontal position [m], the
/// water's axes given in the body frame.
void patchHeights(const HullSoA& hull, const WaterPatch& patch, const btScalar east[3], const btScalar north[3],
                  double centreEast_m, double centreNorth_m, btScalar* out_m);

/// The pressure integral's sums over `count` streams (one set of sums: the
/// vector lanes are added up once).
[[nodiscard]] PressureSums pressureSums(const PieceStream* streams, std::size_t count, const btScalar up[3]);

/// Flow over every piece of `count` streams: relative velocity, cos theta
/// and swept rate into each stream's `out`; skin friction, pressure drag and
/// suction (and slamming, see FlowStream::previousRate) summed.
[[nodiscard]] FlowSums flowSums(const FlowStream* streams, std::size_t count, const FlowParameters& p);

/// Slamming of every piece of positive weight, cos theta and `gamma`.
[[nodiscard]] BodyForce slammingSums(const PieceStream& s, const PieceFlowOut& flow, const btScalar* gamma,
                                     const SlammingParameters& p);

/// Air resistance on the emerged fraction of every hull triangle.
[[nodiscard]] BodyForce airSums(const HullSoA& hull, const btScalar* emerged, const AirParameters& p);

/// The stream of the hull's whole triangles, with per-boat depths, weights
/// and water velocities.
[[nodiscard]] PieceStream triangleStream(const HullSoA& hull, const btScalar* d0, const btScalar* d1,
                                         const btScalar* d2, const btScalar* weight, const btScalar* u,
                                         const btScalar* v, const btScalar* w);

/// The pieces the waterline cuts out of the crossing triangles, as a
/// stream: slot k (< slots) is crossing triangle k's first piece, slot
/// slots + k (k < twoSlots) its second (weight 0 when it has only one).
/// Arrays reserved once.
struct PieceBuffer {
  std::size_t crossing = 0;  ///< crossing triangles cut
  std::size_t slots = 0;     ///< padded(crossing)
  std::size_t twoSlots = 0;  ///< padded(crossing triangles with two wet corners, which come first)
  std::vector<btScalar> ax, ay, az, bx, by, bz, cx, cy, cz, gx, gy, gz, d0, d1, d2, sx, sy, sz, csx, csy, csz, area,
      inverseArea, weight, ux, uy, uz;
  std::vector<btScalar> vx, vy, vz, cosTheta, rate, gamma;
  // Per crossing triangle: its emerged fraction and its waterline segment (p, q) [m].
  std::vector<btScalar> emerged, px, py, pz, qx, qy, qz;
  /// Room for a hull of `triangleCount` triangles.
  void reserve(std::size_t triangleCount);
  [[nodiscard]] std::size_t pieceCount() const { return slots + twoSlots; }
  [[nodiscard]] PieceStream stream() const;
  [[nodiscard]] PieceFlowOut flowOut();
};

/// The least and greatest p . direction over the points (x, y, z)[0..count)
/// (arrays readable up to padded(count)); {BT_LARGE_FLOAT, -BT_LARGE_FLOAT}
/// for none.
[[nodiscard]] Extent extentAlong(const btScalar* x, const btScalar* y, const btScalar* z, std::size_t count,
                                 const btScalar direction[3]);

}  // namespace keel::detail

namespace keel::detail {

/// Groups of four in BoatBuffers::stage.
inline constexpr int kStageGroups = 7;

/// A block of kPad triangles that the water crosses, or wholly above or below it.
inline constexpr std::uint32_t kBlockMixed = 0, kBlockDry = 1, kBlockWet = 2;

/// The fast path's working memory for one substep of one boat (body frame;
/// vertex arrays at least vertexPadded long, triangle arrays trianglePadded).
/// One per thread (threadBuffers): nothing in it outlives the substep, so a
/// fleet's boats share their thread's, which stays in cache, instead of each
/// streaming its own from memory.
struct BoatBuffers {
  // Per vertex.
  std::vector<btScalar> u_m, v_m, w_m;                       ///< world coordinates along the water's axes
  std::vector<btScalar> waterU_mps, waterV_mps, waterW_mps;  ///< water velocity, body axes
  std::vector<btScalar> queryU_m, queryV_m, queryW_m;        ///< the wet vertices' coordinates
  std::vector<std::uint32_t> queried, stamp;                 ///< the wet vertices; a stamp per vertex
  std::uint32_t stampNow = 0;
  std::vector<WaterVelocity> velocity;  ///< the surface's answers, query order
  // Per hull triangle.
  std::vector<btScalar> corner0, corner1, corner2;    ///< the corners' heights (classifyTriangles) [m]
  std::vector<btScalar> d0, d1, d2, weight, emerged;  ///< classifyTriangles
  std::vector<btScalar> waterU, waterV, waterW;       ///< water velocity at the centroid, body axes
  std::vector<ScalarIndex> crossing;                  ///< crossing triangles, two-wet ones first
  std::vector<ScalarIndex> crossingOneWet;            ///< classifyTriangles' second list
  std::size_t twoWetCrossing = 0;                     ///< crossing triangles with two corners wet
  std::vector<std::uint32_t> blockKind;               ///< per block of kPad triangles: kBlockDry, ...
  /// cutCrossing's copies of the crossing triangles' records, in crossing
  /// order, a group of four per triangle each: (a, A), (b, h0), (c, h1),
  /// (S, h2), and the corners' water velocities (u0, 0), (u1, 0), (u2, 0)
  /// [m, m^2, m/s].
  btScalar* stage[kStageGroups] = {};
  std::vector<btScalar> stageMemory;
  PieceBuffer pieces;                                 ///< the cut pieces as a stream
  /// Grows (never shrinks) to fit `hull`: allocates only for a hull larger
  /// than any this thread has seen.
  void fit(const HullSoA& hull);
  [[nodiscard]] PieceStream triangles(const HullSoA& hull) const {
    return triangleStream(hull, d0.data(), d1.data(), d2.data(), weight.data(), waterU.data(), waterV.data(),
                          waterW.data());
  }
};

/// Classifies every triangle by its corners' heights h_m (vertexHeights):
/// into b, depths and weight 1 when wholly submerged (else 0 and 0),
/// emerged fraction 1 when wholly dry (else 0), the corners' heights (only
/// of blocks the water crosses), and the crossing triangles' indices.
/// Returns their count. A block of kPad triangles whose box lies above or
/// below the range of the water heights `water_m` (vertexHeights' result)
/// is classified whole.
std::size_t classifyTriangles(const HullSoA& hull, const btScalar* h_m, const btScalar up[3], btScalar centreUp_m,
                              Extent water_m, BoatBuffers& b);

/// Cuts b's first `count` crossing triangles (hydrostatics.cpp's
/// cutTriangle, lane by lane) into b.pieces, from their corners' heights;
/// with `velocities`, also the water velocity at each piece's centroid from
/// the vertices' (b.waterU_mps, ...; centroidValue).
void cutCrossing(const HullSoA& hull, BoatBuffers& b, std::size_t count, bool velocities);

/// Water velocity at each triangle's centroid, the mean of its corners'
/// (b.waterU_mps, ...), body axes [m/s]: every triangle of the blocks that
/// are not wholly dry.
void triangleWaterVelocity(const HullSoA& hull, const BoatBuffers& b, btScalar* u, btScalar* v, btScalar* w);

/// The water velocities `in` (water frame, count of them; readable up to
/// padded(count)) in body axes, whose water axes are east, north, up:
/// into u, v, w [m/s]. A non-finite one becomes zero; returns how many.
[[nodiscard]] std::size_t velocitiesToBody(const WaterVelocity* in, std::size_t count, const btScalar east[3],
                                           const btScalar north[3], const btScalar up[3], btScalar* u, btScalar* v,
                                           btScalar* w);

/// This thread's BoatBuffers, fitted to `hull`.
[[nodiscard]] BoatBuffers& threadBuffers(const HullSoA& hull);

}  // namespace keel::detail
