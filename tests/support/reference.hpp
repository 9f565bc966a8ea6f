#pragma once
// THE TESTS' ORACLE, NOT THE LIBRARY'S PATH. A scalar, readable restatement
// of Kerner's model (docs/model.md §1 and §2), one function per formula, on
// arrays of structures in relative coordinates (world axes, origin at the
// centre of mass). keel::WaterAction and keel::hydrostaticsAtPose run the
// SIMD code in lib/src instead; the tests compare the two term by term. It
// is built into the tests only and is several times slower than the path
// that runs.

#include <keel/keel.hpp>

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

#include <cstdint>
#include <span>
#include <vector>

namespace keel::reference {

/// Area vector `S = n A = (b - a) x (c - a) / 2` of triangle (a, b, c) [m^2]:
/// the outward normal times the area for a counter-clockwise winding.
[[nodiscard]] inline btVector3 areaVector_m2(const btVector3& a, const btVector3& b, const btVector3& c) {
  return (b - a).cross(c - a) * btScalar(0.5);
}

/// Where a piece's vertex lies on the hull: hull vertex `from` when t = 0,
/// else the point at fraction t of the edge from `from` to `to`.
struct EdgePoint {
  std::uint32_t from = 0;  ///< hull vertex index
  std::uint32_t to = 0;    ///< hull vertex index (== from for a hull vertex)
  btScalar t = 0;          ///< fraction along from -> to, in [0, 1]
};

/// A triangle below the water, with where its vertices lie on the hull.
struct Piece {
  btVector3 r[3];                    ///< vertices, relative [m]
  btScalar depth_m[3];               ///< depth below the water at each vertex (>= 0) [m]
  std::uint32_t triangle = 0;        ///< hull triangle it was cut from
  EdgePoint source[3];               ///< where each vertex lies on the hull
  btVector3 areaVector_m2{0, 0, 0};  ///< [m^2], relative axes
  btScalar area_m2 = 0;              ///< [m^2]
};

/// The mean over the piece's vertices of a per-hull-vertex field,
/// interpolated along the hull's edges: its value at the centroid when the
/// field is linear over the hull triangle.
[[nodiscard]] btVector3 centroidValue(const Piece& piece, std::span<const btVector3> field);

/// A hull triangle with a part above the water.
struct EmergedTriangle {
  std::uint32_t triangle = 0;  ///< hull triangle index
  btScalar fraction = 1;       ///< fraction of its area above the water, in [0, 1]
};

/// The cut's output. Call reserve() once.
struct CutBuffers {
  std::vector<Piece> pieces;                ///< at most 2 per hull triangle
  std::vector<WaterlineSegment> waterline;  ///< at most 1 per hull triangle
  std::vector<EmergedTriangle> emerged;     ///< every triangle not wholly under the water
  void reserve(std::size_t triangleCount);
};

/// `r_out[i] = basis * vertices[i]`: body frame to relative.
void rotateVertices(const btMatrix3x3& basis, std::span<const btVector3> vertices_body, std::span<btVector3> r_out);

/// `h_i = (c + r_i) . up - waterHeight_i` [m], negative when submerged;
/// `centreUp_m` is c . up.
void vertexHeights(std::span<const btVector3> r, btScalar centreUp_m, const btVector3& up,
                   std::span<const btScalar> waterHeight_m, std::span<btScalar> h_out_m);

/// Cuts every triangle at the waterline (linear interpolation of h along the
/// edges): the pieces below, the waterline segments, the emerged fractions.
void cutHull(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull, CutBuffers& out);

/// Kerner's exact pressure force and torque of the pieces (docs/model.md
/// §1, "The pressure integral").
[[nodiscard]] HydrostaticResult integratePressure(std::span<const Piece> pieces, btScalar density_kgpm3,
                                                  btScalar gravity_mps2, const btVector3& up);

/// Water height [m] under each hull vertex by one direct query. Returns the
/// number of non-finite answers (replaced as by replaceNonFinite).
std::size_t sampleDirect(const WaterSurface& surface, const WaterFrame& frame, const btVector3& centre,
                         std::span<const btVector3> r, double t_s, std::span<btScalar> u_scratch,
                         std::span<btScalar> v_scratch, std::span<btScalar> waterHeight_out_m);

/// Water height [m] under each hull vertex from a sampled patch.
void sampleFromPatch(const WaterPatch& patch, const WaterFrame& frame, const btVector3& centre,
                     std::span<const btVector3> r, std::span<btScalar> waterHeight_out_m);

/// Flow over one piece.
struct PieceFlow {
  btVector3 centroid{0, 0, 0};      ///< relative [m]
  btVector3 velocity_mps{0, 0, 0};  ///< hull velocity relative to the water there, world [m/s]
  btVector3 normal{0, 0, 0};        ///< outward unit normal
  btScalar area_m2 = 0;             ///< [m^2]
  btScalar speed_mps = 0;           ///< |velocity_mps| [m/s]
  btScalar cosTheta = 0;            ///< velocity direction . normal (0 when at rest)
};

/// Each piece's flow: `v_G + omega x C - u_water(C)`.
void pieceFlows(std::span<const Piece> pieces, const btVector3& linearVelocity_mps,
                const btVector3& angularVelocity_radps, std::span<const btVector3> waterVelocity_mps,
                std::span<PieceFlow> out);

/// Length of the wetted hull along a direction [m]: the extent of the
/// waterline points (of the pieces when there is no waterline).
[[nodiscard]] btScalar wettedLength_m(std::span<const Piece> pieces, std::span<const WaterlineSegment> waterline,
                                      const btVector3& flowDirection);

/// Skin friction: `1/2 rho Cf A |v|^2` along `-v_t / |v_t|`.
[[nodiscard]] ForceTorque viscousForce(std::span<const PieceFlow> flows, btScalar density_kgpm3,
                                       btScalar frictionCoefficient);

/// Pressure drag (cos theta > 0) and suction (cos theta < 0).
[[nodiscard]] ForceTorque pressureDragForce(std::span<const PieceFlow> flows, const HydrodynamicSettings& s);

/// Per-hull-triangle slamming state carried from one substep to the next.
struct SlammingState {
  std::vector<btScalar> sweptRate_m3ps;  ///< each hull triangle's swept volume rate last substep [m^3/s]
  bool warm = false;                     ///< false until one substep has been seen
  void reset(std::size_t triangleCount);
};

/// Slamming force; updates `state` for the next substep.
[[nodiscard]] ForceTorque slammingForce(std::span<const Piece> pieces, std::span<const PieceFlow> flows,
                                        std::span<const btScalar> triangleArea_m2, btScalar hullArea_m2,
                                        btScalar mass_kg, btScalar dt_s, const HydrodynamicSettings& s,
                                        std::span<btScalar> scratch_m3ps, SlammingState& state);

/// Air resistance on the emerged part of each hull triangle facing the wind.
[[nodiscard]] ForceTorque airForce(std::span<const btVector3> r, std::span<const Hull::Triangle> triangles,
                                   std::span<const EmergedTriangle> emerged, const btVector3& linearVelocity_mps,
                                   const btVector3& angularVelocity_radps, const HydrodynamicSettings& s);

}  // namespace keel::reference
