#include <keel/hydrostatics.hpp>

#include "cut_detail.hpp"
#include "kernels/pressure.hpp"

#include <cassert>

namespace keel {

void CutBuffers::reserve(std::size_t triangleCount) {
  pieces.reserve(2 * triangleCount);
  waterline.reserve(triangleCount);
  emerged.reserve(triangleCount);
}

void rotateVertices(const btMatrix3x3& basis, std::span<const btVector3> vertices_body,
                    std::span<btVector3> r_out) {
  assert(r_out.size() >= vertices_body.size());
  for (std::size_t i = 0; i < vertices_body.size(); ++i) r_out[i] = basis * vertices_body[i];
}

void vertexHeights(std::span<const btVector3> r, btScalar centreUp_m, const btVector3& up,
                   std::span<const btScalar> waterHeight_m, std::span<btScalar> h_out_m) {
  assert(waterHeight_m.size() >= r.size() && h_out_m.size() >= r.size());
  for (std::size_t i = 0; i < r.size(); ++i)
    h_out_m[i] = (centreUp_m + r[i].dot(up)) - waterHeight_m[i];
}

namespace {

/// cutCrossingTriangle's output into CutBuffers (the reference pipeline's
/// array-of-structures pieces).
struct CutBufferSink {
  CutBuffers& out;
  /// A piece's vertices lie on the triangle's edges, so its area vector is
  /// the triangle's scaled by the fraction it covers, without a cross
  /// product or a square root of its own.
  void piece(const detail::CutPoint& a, const detail::CutPoint& b, const detail::CutPoint& c, std::uint32_t triangle,
             const btVector3& s, btScalar area_m2, btScalar fraction) {
    out.pieces.push_back(SubmergedPiece{{a.r, b.r, c.r},
                                        {a.depth_m, b.depth_m, c.depth_m},
                                        triangle,
                                        {a.source, b.source, c.source},
                                        s * fraction,
                                        area_m2 * fraction});
  }
  void waterline(const btVector3& a, const btVector3& b) { out.waterline.push_back({a, b}); }
  void emerged(std::uint32_t triangle, btScalar fraction) { out.emerged.push_back({triangle, fraction}); }
};

}  // namespace

void cutHull(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull, CutBuffers& out) {
  const std::span<const Hull::Triangle> triangles = hull.triangles();
  out.pieces.clear();
  out.waterline.clear();
  out.emerged.clear();
  assert(out.pieces.capacity() >= 2 * triangles.size() && out.waterline.capacity() >= triangles.size() &&
         out.emerged.capacity() >= triangles.size());
  for (std::uint32_t t = 0; t < triangles.size(); ++t) cutTriangle(r, h_m, hull, t, out);
}

void cutTriangle(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull, std::uint32_t t,
                 CutBuffers& out) {
  const auto& tri = hull.triangles()[t];
  const btScalar area_m2 = hull.triangleAreas_m2()[t];
  const bool wet[3] = {h_m[tri[0]] < 0, h_m[tri[1]] < 0, h_m[tri[2]] < 0};
  if (wet[0] && wet[1] && wet[2]) {
    const btVector3 s = areaVector_m2(r[tri[0]], r[tri[1]], r[tri[2]]);
    out.pieces.push_back(SubmergedPiece{{r[tri[0]], r[tri[1]], r[tri[2]]},
                                        {-h_m[tri[0]], -h_m[tri[1]], -h_m[tri[2]]},
                                        t,
                                        {{tri[0], tri[0], 0}, {tri[1], tri[1], 0}, {tri[2], tri[2], 0}},
                                        s,
                                        area_m2});
  } else if (wet[0] || wet[1] || wet[2]) {
    CutBufferSink sink{out};
    detail::cutCrossingTriangle(r, h_m, tri, t, area_m2, wet, sink);
  } else {
    out.emerged.push_back({t, 1});
  }
}

HydrostaticResult integratePressure(std::span<const SubmergedPiece> pieces, btScalar density_kgpm3,
                                    btScalar gravity_mps2, const btVector3& up) {
  // Per piece, with area vector S = n A and depths d_i linear over it
  // (design.md §1.1 step 4; int l_i l_j dA = A (1 + delta_ij) / 12):
  //   int d n dA     = S (d1 + d2 + d3) / 3
  //   int d r dA     = A m / 12,  m = sum d_i r_i + (sum d_i)(sum r_i)
  //   int d^2 dA     = A (sum d_i^2 + (sum d_i)^2) / 12
  // Force -rho g int d n dA; torque int r x (-rho g d n) dA = -(rho g / 12) m x S.
  // Accumulated in double: the sums cancel heavily on a closed hull.
  detail::PressureSums sums;
  for (const SubmergedPiece& p : pieces) {
    const btVector3& s = p.areaVector_m2;
    const btScalar sumD = p.depth_m[0] + p.depth_m[1] + p.depth_m[2];
    const btVector3 m = p.r[0] * p.depth_m[0] + p.r[1] * p.depth_m[1] + p.r[2] * p.depth_m[2] +
                        (p.r[0] + p.r[1] + p.r[2]) * sumD;
    const btVector3 torque = m.cross(s);
    const btScalar sUp = s.dot(up);
    const btScalar sumD2 = p.depth_m[0] * p.depth_m[0] + p.depth_m[1] * p.depth_m[1] +
                           p.depth_m[2] * p.depth_m[2] + sumD * sumD;
    for (int k = 0; k < 3; ++k) {
      sums.force[k] += double(s[k]) * double(sumD);
      sums.moment[k] += double(torque[k]);
      sums.buoyancyMoment[k] += double(sUp) * double(m[k]);
    }
    sums.area += double(p.area_m2);
    sums.depthIntegral += double(sUp) * double(sumD2);
  }
  return detail::pressureResult(sums, density_kgpm3, gravity_mps2, up);
}

}  // namespace keel
