// The tests' oracle for the hydrostatics (reference.hpp): sampling, heights,
// the waterline cut and the pressure integral, scalar and readable.
#include "reference.hpp"

#include "water/patch_sampler.hpp"

#include <cassert>

namespace keel::reference {

btVector3 centroidValue(const Piece& piece, std::span<const btVector3> field) {
  btVector3 sum(0, 0, 0);
  for (const EdgePoint& e : piece.source)
    sum += e.t == 0 ? field[e.from] : field[e.from] + (field[e.to] - field[e.from]) * e.t;
  return sum * btScalar(1.0 / 3.0);
}

void CutBuffers::reserve(std::size_t triangleCount) {
  pieces.reserve(2 * triangleCount);
  waterline.reserve(triangleCount);
  emerged.reserve(triangleCount);
}

void rotateVertices(const btMatrix3x3& basis, std::span<const btVector3> vertices_body, std::span<btVector3> r_out) {
  assert(r_out.size() >= vertices_body.size());
  for (std::size_t i = 0; i < vertices_body.size(); ++i) r_out[i] = basis * vertices_body[i];
}

void vertexHeights(std::span<const btVector3> r, btScalar centreUp_m, const btVector3& up,
                   std::span<const btScalar> waterHeight_m, std::span<btScalar> h_out_m) {
  assert(waterHeight_m.size() >= r.size() && h_out_m.size() >= r.size());
  for (std::size_t i = 0; i < r.size(); ++i) h_out_m[i] = (centreUp_m + r[i].dot(up)) - waterHeight_m[i];
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

/// Where the water crosses the edge from wet vertex `below` (h < 0) to
/// `above` (h >= 0), by linear interpolation of h (exact for planar water
/// over the triangle). Depth 0 there.
CutPoint waterlinePoint(std::span<const btVector3> r, std::span<const btScalar> h_m, std::uint32_t below,
                        std::uint32_t above) {
  const btScalar t = h_m[below] / (h_m[below] - h_m[above]);
  return {r[below] + (r[above] - r[below]) * t, 0, {below, above, t}};
}

/// A piece covering `fraction` of its triangle (area vector s, area A):
/// its vertices lie on the triangle, so its area vector is s times that.
void addPiece(CutBuffers& out, const CutPoint& a, const CutPoint& b, const CutPoint& c, std::uint32_t triangle,
              const btVector3& s, btScalar area_m2, btScalar fraction) {
  out.pieces.push_back(Piece{{a.r, b.r, c.r},
                             {a.depth_m, b.depth_m, c.depth_m},
                             triangle,
                             {a.source, b.source, c.source},
                             s * fraction,
                             area_m2 * fraction});
}

/// Cuts a triangle with 1 or 2 wet vertices.
void cutCrossing(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull::Triangle& tri,
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
    // Only v0 wet: the piece (v0, J1, J2) covers t1 t2 of the triangle.
    const CutPoint j1 = waterlinePoint(r, h_m, v0, v1), j2 = waterlinePoint(r, h_m, v0, v2);
    const btScalar wetFraction = j1.source.t * j2.source.t;
    addPiece(out, hullVertex(r, h_m, v0), j1, j2, triangle, s, area_m2, wetFraction);
    out.waterline.push_back({j1.r, j2.r});
    out.emerged.push_back({triangle, 1 - wetFraction});
  } else {
    // Only v0 dry: the wet quadrilateral (I1, v1, v2, I2) as two triangles,
    // I1 at fraction a from v1 towards v0, I2 at b from v2: areas a and
    // b (1 - a); the dry corner has (1 - a)(1 - b).
    const CutPoint i1 = waterlinePoint(r, h_m, v1, v0), i2 = waterlinePoint(r, h_m, v2, v0);
    const btScalar a = i1.source.t, b = i2.source.t;
    addPiece(out, i1, hullVertex(r, h_m, v1), hullVertex(r, h_m, v2), triangle, s, area_m2, a);
    addPiece(out, i1, hullVertex(r, h_m, v2), i2, triangle, s, area_m2, b * (1 - a));
    out.waterline.push_back({i2.r, i1.r});
    out.emerged.push_back({triangle, (1 - a) * (1 - b)});
  }
}

}  // namespace

void cutHull(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull& hull, CutBuffers& out) {
  const std::span<const Hull::Triangle> triangles = hull.triangles();
  out.pieces.clear();
  out.waterline.clear();
  out.emerged.clear();
  for (std::uint32_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    const btScalar area_m2 = hull.triangleAreas_m2()[t];
    const bool wet[3] = {h_m[tri[0]] < 0, h_m[tri[1]] < 0, h_m[tri[2]] < 0};
    if (wet[0] && wet[1] && wet[2]) {
      addPiece(out, hullVertex(r, h_m, tri[0]), hullVertex(r, h_m, tri[1]), hullVertex(r, h_m, tri[2]), t,
               areaVector_m2(r[tri[0]], r[tri[1]], r[tri[2]]), area_m2, 1);
    } else if (wet[0] || wet[1] || wet[2]) {
      cutCrossing(r, h_m, tri, t, area_m2, wet, out);
    } else {
      out.emerged.push_back({t, 1});
    }
  }
}

HydrostaticResult integratePressure(std::span<const Piece> pieces, btScalar density_kgpm3, btScalar gravity_mps2,
                                    const btVector3& up) {
  // Per piece, with area vector S = n A and depths d_i linear over it
  // (int l_i l_j dA = A (1 + delta_ij) / 12):
  //   int d n dA = S (d1 + d2 + d3) / 3
  //   int d r dA = A m / 12,  m = sum d_i r_i + (sum d_i)(sum r_i)
  //   int d^2 dA = A (sum d_i^2 + (sum d_i)^2) / 12
  // Force -rho g int d n dA; torque int r x (-rho g d n) dA = -(rho g / 12) m x S.
  double force[3] = {0, 0, 0}, moment[3] = {0, 0, 0}, buoyancyMoment[3] = {0, 0, 0}, area = 0, depth2 = 0;
  for (const Piece& p : pieces) {
    const btVector3& s = p.areaVector_m2;
    const btScalar sumD = p.depth_m[0] + p.depth_m[1] + p.depth_m[2];
    const btVector3 m = p.r[0] * p.depth_m[0] + p.r[1] * p.depth_m[1] + p.r[2] * p.depth_m[2] +
                        (p.r[0] + p.r[1] + p.r[2]) * sumD;
    const btVector3 torque = m.cross(s);
    const btScalar sUp = s.dot(up);
    const btScalar sumD2 = p.depth_m[0] * p.depth_m[0] + p.depth_m[1] * p.depth_m[1] + p.depth_m[2] * p.depth_m[2] +
                           sumD * sumD;
    for (int k = 0; k < 3; ++k) {
      force[k] += double(s[k]) * double(sumD);
      moment[k] += double(torque[k]);
      buoyancyMoment[k] += double(sUp) * double(m[k]);
    }
    area += double(p.area_m2);
    depth2 += double(sUp) * double(sumD2);
  }
  const double rhoG = double(density_kgpm3) * double(gravity_mps2);
  HydrostaticResult r;
  r.force_N = btVector3(btScalar(-rhoG * force[0] / 3), btScalar(-rhoG * force[1] / 3), btScalar(-rhoG * force[2] / 3));
  r.torque_Nm = btVector3(btScalar(-rhoG * moment[0] / 12), btScalar(-rhoG * moment[1] / 12),
                          btScalar(-rhoG * moment[2] / 12));
  // V = F . up / (rho g); by the divergence theorem with grad d = -up (the
  // waterplane, where d = 0, adds nothing):
  //   V B = up int_V d dV - sum (S . up) int d r dA / A,  int_V d dV = -sum (S . up) int d^2 dA / (2 A).
  const double volume = -(force[0] * up.x() + force[1] * up.y() + force[2] * up.z()) / 3;
  const double depthVolume = -depth2 / 24;
  r.submergedVolume_m3 = btScalar(volume);
  r.wettedArea_m2 = btScalar(area);
  r.depthIntegral_m4 = btScalar(depthVolume);
  if (volume > 0)
    for (int k = 0; k < 3; ++k)
      r.centreOfBuoyancy_m[k] = btScalar((double(up[k]) * depthVolume - buoyancyMoment[k] / 12) / volume);
  return r;
}

std::size_t sampleDirect(const WaterSurface& surface, const WaterFrame& frame, const btVector3& centre,
                         std::span<const btVector3> r, double t_s, std::span<btScalar> u_scratch,
                         std::span<btScalar> v_scratch, std::span<btScalar> waterHeight_out_m) {
  assert(u_scratch.size() >= r.size() && v_scratch.size() >= r.size() && waterHeight_out_m.size() >= r.size());
  const double cu = double(centre.dot(frame.east)), cv = double(centre.dot(frame.north));
  for (std::size_t i = 0; i < r.size(); ++i) {
    u_scratch[i] = btScalar(cu + double(r[i].dot(frame.east)));
    v_scratch[i] = btScalar(cv + double(r[i].dot(frame.north)));
  }
  surface.heights(u_scratch.data(), v_scratch.data(), r.size(), t_s, waterHeight_out_m.data());
  return detail::replaceNonFinite(waterHeight_out_m.first(r.size()));
}

void sampleFromPatch(const WaterPatch& patch, const WaterFrame& frame, const btVector3& centre,
                     std::span<const btVector3> r, std::span<btScalar> waterHeight_out_m) {
  assert(waterHeight_out_m.size() >= r.size());
  const double cu = double(centre.dot(frame.east)), cv = double(centre.dot(frame.north));
  for (std::size_t i = 0; i < r.size(); ++i)
    waterHeight_out_m[i] = patch.height(cu + double(r[i].dot(frame.east)), cv + double(r[i].dot(frame.north)));
}

}  // namespace keel::reference
