#include <keel/hydrostatics.hpp>

#include <cassert>

namespace keel {

void CutBuffers::reserve(std::size_t triangleCount) {
  pieces.reserve(2 * triangleCount);
  waterline.reserve(triangleCount);
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

/// Where the water surface crosses the edge from submerged `below` (h < 0) to
/// `above` (h >= 0), by linear interpolation of h (exact for planar water over
/// the triangle, design.md §1.1 step 3).
btVector3 waterlinePoint(const btVector3& below, btScalar hBelow, const btVector3& above, btScalar hAbove) {
  const btScalar t = hBelow / (hBelow - hAbove);  // hBelow < 0 <= hAbove: denominator < 0
  return below + (above - below) * t;
}

void pushPiece(CutBuffers& out, const btVector3& a, btScalar da, const btVector3& b, btScalar db,
               const btVector3& c, btScalar dc, std::uint32_t triangle) {
  out.pieces.push_back(SubmergedPiece{{a, b, c}, {da, db, dc}, triangle});
}

}  // namespace

void cutHull(std::span<const btVector3> r, std::span<const btScalar> h_m,
             std::span<const Hull::Triangle> triangles, CutBuffers& out) {
  out.pieces.clear();
  out.waterline.clear();
  assert(out.pieces.capacity() >= 2 * triangles.size() && out.waterline.capacity() >= triangles.size());
  for (std::uint32_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    const btScalar h[3] = {h_m[tri[0]], h_m[tri[1]], h_m[tri[2]]};
    const int wet = int(h[0] < 0) + int(h[1] < 0) + int(h[2] < 0);
    if (wet == 0) continue;
    if (wet == 3) {
      pushPiece(out, r[tri[0]], -h[0], r[tri[1]], -h[1], r[tri[2]], -h[2], t);
      continue;
    }
    // Rotate (never reflect: the winding is the outward normal) so that the
    // odd vertex out comes first: the wet one when one is wet, the dry one
    // when two are.
    int first = 0;
    for (int k = 0; k < 3; ++k)
      if ((h[k] < 0) == (wet == 1)) first = k;
    const int second = (first + 1) % 3, third = (first + 2) % 3;
    const btVector3& p0 = r[tri[first]];
    const btVector3& p1 = r[tri[second]];
    const btVector3& p2 = r[tri[third]];
    const btScalar h0 = h[first], h1 = h[second], h2 = h[third];
    if (wet == 1) {
      // Only p0 wet: the piece is (p0, J1, J2), J on edges p0p1 and p0p2.
      const btVector3 j1 = waterlinePoint(p0, h0, p1, h1);
      const btVector3 j2 = waterlinePoint(p0, h0, p2, h2);
      pushPiece(out, p0, -h0, j1, 0, j2, 0, t);
      out.waterline.push_back({j1, j2});
    } else {
      // Only p0 dry: the wet quadrilateral (I1, p1, p2, I2) as two triangles.
      const btVector3 i1 = waterlinePoint(p1, h1, p0, h0);
      const btVector3 i2 = waterlinePoint(p2, h2, p0, h0);
      pushPiece(out, i1, 0, p1, -h1, p2, -h2, t);
      pushPiece(out, i1, 0, p2, -h2, i2, 0, t);
      out.waterline.push_back({i2, i1});
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
    const btVector3 s = (p.r[1] - p.r[0]).cross(p.r[2] - p.r[0]) * btScalar(0.5);
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
    area += double(s.length());
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
