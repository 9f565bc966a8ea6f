#pragma once
/// @file hydrostatics.hpp
/// Kerner's hydrostatics as pure functions on caller-owned buffers
/// (design.md §1.1 steps 2-5): vertex heights, the waterline cut, and the
/// exact pressure force and torque. Nothing here touches a btRigidBody, so
/// each step can be tested and reused without a Bullet world.
///
/// Positions are "relative": world axes, origin at the body's centre of mass
/// [m]. Keeping them relative keeps float precision for a boat 1e5 m from the
/// world origin.

#include <keel/hull.hpp>

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

#include <cstdint>
#include <span>
#include <vector>

namespace keel {

/// Where a piece's vertex lies on the hull: hull vertex `from` when t = 0,
/// else the point at fraction t of the edge from `from` to `to`. Any field
/// given per hull vertex (water velocity, say) interpolates to it exactly as
/// the cut interpolated the heights.
struct EdgePoint {
  std::uint32_t from = 0;  ///< hull vertex index
  std::uint32_t to = 0;    ///< hull vertex index (== from for a hull vertex)
  btScalar t = 0;          ///< fraction along from -> to, in [0, 1]
};

/// Area vector `S = n A = (b - a) x (c - a) / 2` of triangle (a, b, c) [m^2]:
/// the outward normal times the area for a counter-clockwise winding.
[[nodiscard]] inline btVector3 areaVector_m2(const btVector3& a, const btVector3& b, const btVector3& c) {
  return (b - a).cross(c - a) * btScalar(0.5);
}

/// A triangle below the water. Winding (and so the outward normal) is the
/// hull triangle's.
struct SubmergedPiece {
  btVector3 r[3];              ///< vertices relative to the centre of mass, world axes [m]
  btScalar depth_m[3];         ///< depth below the water surface at each vertex (>= 0) [m]
  std::uint32_t triangle = 0;  ///< index of the hull triangle it was cut from
  EdgePoint source[3];         ///< where each vertex lies on the hull
  /// `areaVector_m2(r[0], r[1], r[2])` up to rounding [m^2, world axes],
  /// computed once by the cut for the pressure integral and the flows alike.
  btVector3 areaVector_m2{0, 0, 0};
  btScalar area_m2 = 0;        ///< |areaVector_m2| [m^2]
};

/// The mean over the piece's three vertices of a per-hull-vertex field,
/// interpolated along the hull's edges: its value at the piece's centroid
/// when the field is linear over the hull triangle.
[[nodiscard]] inline btVector3 centroidValue(const SubmergedPiece& piece, std::span<const btVector3> field) {
  btVector3 sum(0, 0, 0);
  for (const EdgePoint& e : piece.source)
    sum += e.t == 0 ? field[e.from] : field[e.from] + (field[e.to] - field[e.from]) * e.t;  // hull vertex, or on an edge
  return sum * btScalar(1.0 / 3.0);
}

/// A piece of the waterline: where a hull triangle crosses the surface.
struct WaterlineSegment {
  btVector3 a;  ///< start, relative to the centre of mass, world axes [m]
  btVector3 b;  ///< end, relative to the centre of mass, world axes [m]
};

/// A hull triangle with a part above the water.
struct EmergedTriangle {
  std::uint32_t triangle = 0;  ///< hull triangle index
  btScalar fraction = 1;       ///< fraction of its area above the water, in [0, 1]
};

/// Output buffers of cutHull. Call reserve() once; cutHull never allocates
/// after that.
struct CutBuffers {
  std::vector<SubmergedPiece> pieces;       ///< at most 2 per hull triangle
  std::vector<WaterlineSegment> waterline;  ///< at most 1 per hull triangle
  std::vector<EmergedTriangle> emerged;     ///< every triangle not wholly under the water
  /// Reserve room for a hull of `triangleCount` triangles.
  void reserve(std::size_t triangleCount);
};

/// What the pressure integral gives for one boat.
struct HydrostaticResult {
  btVector3 force_N{0, 0, 0};   ///< total pressure force, world axes [N]
  btVector3 torque_Nm{0, 0, 0}; ///< pressure torque about the centre of mass, world axes [N m]
  /// Displaced volume [m^3]: the vertical force over rho g. Exact in flat water.
  btScalar submergedVolume_m3 = 0;
  btScalar wettedArea_m2 = 0;   ///< area of the submerged pieces [m^2]
  /// Centre of buoyancy relative to the centre of mass, world axes [m]: the
  /// centroid of the displaced volume, exact in flat water. Zero when dry.
  btVector3 centreOfBuoyancy{0, 0, 0};
  /// Integral of depth over the displaced volume [m^4], exact in flat water:
  /// rho g times it is the hydrostatic potential energy, so a floating body's
  /// mechanical energy is `1/2 m v^2 + 1/2 w.I w + m g h_G + rho g` this.
  btScalar depthIntegral_m4 = 0;
};

/// Hull vertices from the body frame to relative positions:
/// `r_out[i] = basis * vertices[i]` (basis: the centre-of-mass rotation).
void rotateVertices(const btMatrix3x3& basis, std::span<const btVector3> vertices_body,
                    std::span<btVector3> r_out);

/// Signed heights above the water (design.md §1.1 step 2):
/// `h_i = (c + r_i) . up - waterHeight_i`, negative when submerged.
/// `centreUp_m` is c . up, the centre of mass's height along up.
void vertexHeights(std::span<const btVector3> r, btScalar centreUp_m, const btVector3& up,
                   std::span<const btScalar> waterHeight_m, std::span<btScalar> h_out_m);

/// Cuts every triangle at the waterline (design.md §1.1 step 3): keeps the
/// parts below it (0, 1 or 2 pieces per triangle, with their area vectors),
/// the waterline segments, and the emerged fraction of every triangle not
/// wholly submerged. `r` and `h_m` are per vertex of `hull`, whose
/// triangle areas give the pieces' (a rotation keeps areas). Clears `out`
/// first; `out` must have been reserved for the hull's triangle count.
void cutHull(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull, CutBuffers& out);

/// Cuts hull triangle `triangle` alone, as cutHull does each of them:
/// appends its pieces, waterline segment and emerged fraction to `out`
/// (not cleared). `r` may be in any frame (the body frame, say): the pieces'
/// positions and area vectors come out in it.
void cutTriangle(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull,
                 std::uint32_t triangle, CutBuffers& out);

/// Exact hydrostatic force and torque of the submerged pieces (design.md §1.1
/// step 4): depth is linear over each piece, so the pressure integral and its
/// first moment are closed-form; the torque is the exact centre of pressure's.
/// Horizontal components are kept. `density_kgpm3` is rho, `gravity_mps2` is
/// |g|, `up` the unit up axis.
[[nodiscard]] HydrostaticResult integratePressure(std::span<const SubmergedPiece> pieces,
                                                  btScalar density_kgpm3, btScalar gravity_mps2,
                                                  const btVector3& up);

}  // namespace keel
