#include <keel/hydrostatics.hpp>

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

/// A piece vertex and where it lies on the hull.
struct CutPoint {
  btVector3 r;
  btScalar depth_m;
  EdgePoint source;
};

CutPoint hullVertex(std::span<const btVector3> r, std::span<const btScalar> h_m, std::uint32_t i) {
  return {r[i], -h_m[i], {i, i, 0}};
}

/// Where the water surface crosses the edge from submerged vertex `below`
/// (h < 0) to `above` (h >= 0), by linear interpolation of h (exact for
/// planar water over the triangle, design.md §1.1 step 3). Depth 0 there.
CutPoint waterlinePoint(std::span<const btVector3> r, std::span<const btScalar> h_m, std::uint32_t below,
                        std::uint32_t above) {
  const btScalar t = h_m[below] / (h_m[below] - h_m[above]);  // h_below < 0 <= h_above: denominator < 0
  return {r[below] + (r[above] - r[below]) * t, 0, {below, above, t}};
}

/// Appends the piece (a, b, c) of a hull triangle of area vector `s` and
/// area `area_m2`, covering `fraction` of it: a piece's vertices lie on the
/// triangle's edges, so its area vector is the triangle's scaled by that
/// fraction, without a cross product or a square root of its own.
void pushPiece(CutBuffers& out, const CutPoint& a, const CutPoint& b, const CutPoint& c, std::uint32_t triangle,
               const btVector3& s, btScalar area_m2, btScalar fraction) {
  out.pieces.push_back(SubmergedPiece{{a.r, b.r, c.r},
                                      {a.depth_m, b.depth_m, c.depth_m},
                                      triangle,
                                      {a.source, b.source, c.source},
                                      s * fraction,
                                      area_m2 * fraction});
}

/// Cuts a hull triangle that crosses the waterline (1 or 2 vertices wet).
void cutTriangle(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull::Triangle& tri,
                 std::uint32_t triangle, btScalar area_m2, const bool (&wet)[3], CutBuffers& out) {
  const int wetCount = int(wet[0]) + int(wet[1]) + int(wet[2]);
  const btVector3 s = areaVector_m2(r[tri[0]], r[tri[1]], r[tri[2]]);
  // Rotate (never reflect: the winding is the outward normal) so that the
  // odd vertex out comes first: the wet one when one is wet, the dry one
  // when two are.
  int first = 0;
  for (int k = 0; k < 3; ++k)
    if (wet[k] == (wetCount == 1)) first = k;
  const std::uint32_t v0 = tri[first], v1 = tri[(first + 1) % 3], v2 = tri[(first + 2) % 3];
  if (wetCount == 1) {
    // Only v0 wet: the piece is (v0, J1, J2), J on edges v0v1 and v0v2 at
    // fractions t1, t2 from v0, so its area is t1 t2 of the triangle's.
    const CutPoint j1 = waterlinePoint(r, h_m, v0, v1), j2 = waterlinePoint(r, h_m, v0, v2);
    const btScalar wetFraction = j1.source.t * j2.source.t;
    pushPiece(out, hullVertex(r, h_m, v0), j1, j2, triangle, s, area_m2, wetFraction);
    out.waterline.push_back({j1.r, j2.r});
    out.emerged.push_back({triangle, 1 - wetFraction});
  } else {
    // Only v0 dry: the wet quadrilateral (I1, v1, v2, I2) as two triangles,
    // I1 at fraction a from v1 towards v0, I2 at b from v2. (I1, v1, v2) has
    // a times the triangle's height over the same base: area a; the dry
    // corner (v0, I1, I2) has (1 - a)(1 - b); (I1, v2, I2) the rest, b (1 - a).
    const CutPoint i1 = waterlinePoint(r, h_m, v1, v0), i2 = waterlinePoint(r, h_m, v2, v0);
    const btScalar a = i1.source.t, b = i2.source.t;
    pushPiece(out, i1, hullVertex(r, h_m, v1), hullVertex(r, h_m, v2), triangle, s, area_m2, a);
    pushPiece(out, i1, hullVertex(r, h_m, v2), i2, triangle, s, area_m2, b * (1 - a));
    out.waterline.push_back({i2.r, i1.r});
    out.emerged.push_back({triangle, (1 - a) * (1 - b)});
  }
}

}  // namespace

void cutHull(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull, CutBuffers& out) {
  const std::span<const Hull::Triangle> triangles = hull.triangles();
  const std::span<const btScalar> areas = hull.triangleAreas_m2();
  out.pieces.clear();
  out.waterline.clear();
  out.emerged.clear();
  assert(out.pieces.capacity() >= 2 * triangles.size() && out.waterline.capacity() >= triangles.size() &&
         out.emerged.capacity() >= triangles.size());
  for (std::uint32_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    const bool wet[3] = {h_m[tri[0]] < 0, h_m[tri[1]] < 0, h_m[tri[2]] < 0};
    if (wet[0] && wet[1] && wet[2]) {
      const btVector3 s = areaVector_m2(r[tri[0]], r[tri[1]], r[tri[2]]);
      out.pieces.push_back(SubmergedPiece{{r[tri[0]], r[tri[1]], r[tri[2]]},
                                          {-h_m[tri[0]], -h_m[tri[1]], -h_m[tri[2]]},
                                          t,
                                          {{tri[0], tri[0], 0}, {tri[1], tri[1], 0}, {tri[2], tri[2], 0}},
                                          s,
                                          areas[t]});
    } else if (wet[0] || wet[1] || wet[2]) {
      cutTriangle(r, h_m, tri, t, areas[t], wet, out);
    } else {
      out.emerged.push_back({t, 1});
    }
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
  double force[3] = {0, 0, 0}, moment[3] = {0, 0, 0}, buoyancyMoment[3] = {0, 0, 0};
  double area = 0, depthIntegral = 0;
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
      force[k] += double(s[k]) * double(sumD);
      moment[k] += double(torque[k]);
      buoyancyMoment[k] += double(sUp) * double(m[k]);
    }
    area += double(p.area_m2);
    depthIntegral += double(sUp) * double(sumD2);
  }
  const double rhoG = double(density_kgpm3) * double(gravity_mps2);
  HydrostaticResult result;
  result.force_N = btVector3(btScalar(-rhoG * force[0] / 3), btScalar(-rhoG * force[1] / 3),
                             btScalar(-rhoG * force[2] / 3));
  result.torque_Nm = btVector3(btScalar(-rhoG * moment[0] / 12), btScalar(-rhoG * moment[1] / 12),
                               btScalar(-rhoG * moment[2] / 12));
  // V = F . up / (rho g) = -sum (S . up)(sum d) / 3.
  const double volume = -(force[0] * up.x() + force[1] * up.y() + force[2] * up.z()) / 3;
  result.submergedVolume_m3 = btScalar(volume);
  result.wettedArea_m2 = btScalar(area);
  // Divergence theorem with grad d = -up (flat water), the waterplane
  // contributing nothing because d = 0 there:
  //   V B = up int_V d dV - sum (S . up) int d r dA / A,
  //   int_V d dV = -sum (S . up) int d^2 dA / (2 A).
  const double depthVolume = -depthIntegral / 24;
  result.depthIntegral_m4 = btScalar(depthVolume);
  if (volume > 0) {
    for (int k = 0; k < 3; ++k)
      result.centreOfBuoyancy[k] = btScalar((double(up[k]) * depthVolume - buoyancyMoment[k] / 12) / volume);
  }
  return result;
}

}  // namespace keel
