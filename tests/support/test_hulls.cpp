#include "test_hulls.hpp"

#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace keel::test {
using namespace keel::reference;  // the scalar oracle

Mesh joined(const Mesh& a, const Mesh& b) {
  Mesh m = a;
  const auto offset = std::uint32_t(a.vertices.size());
  m.vertices.insert(m.vertices.end(), b.vertices.begin(), b.vertices.end());
  for (Hull::Triangle t : b.triangles) m.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  return m;
}

Mesh box(const btVector3& size, int n, const btVector3& centre) {
  Mesh m;
  const btVector3 half = size * btScalar(0.5);
  // Each face: a normal axis, a sign, and two in-plane axes ordered so that
  // (a x b) points along the outward normal.
  for (int axis = 0; axis < 3; ++axis)
    for (int sign = -1; sign <= 1; sign += 2) {
      const int a = (axis + 1) % 3, b = (axis + 2) % 3;
      const auto base = std::uint32_t(m.vertices.size());
      for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
          btVector3 p(0, 0, 0);
          p[axis] = btScalar(sign) * half[axis];
          p[a] = -half[a] + size[a] * btScalar(i) / btScalar(n);
          p[b] = -half[b] + size[b] * btScalar(j) / btScalar(n);
          m.vertices.push_back(p + centre);
        }
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const std::uint32_t v00 = base + std::uint32_t(j * (n + 1) + i), v10 = v00 + 1,
                              v01 = v00 + std::uint32_t(n + 1), v11 = v01 + 1;
          if (sign > 0) {
            m.triangles.push_back({v00, v10, v11});
            m.triangles.push_back({v00, v11, v01});
          } else {
            m.triangles.push_back({v00, v11, v10});
            m.triangles.push_back({v00, v01, v11});
          }
        }
    }
  return m;  // face edges are duplicated vertices: keel::Hull welds them
}

Mesh icosphere(btScalar radius_m, int levels, const btVector3& centre) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<std::array<double, 3>> v = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                                          {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  std::vector<Hull::Triangle> f = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                                   {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                                   {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  auto normalise = [](std::array<double, 3> p) {
    const double l = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    return std::array<double, 3>{p[0] / l, p[1] / l, p[2] / l};
  };
  for (auto& p : v) p = normalise(p);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back(normalise({(v[a][0] + v[b][0]) / 2, (v[a][1] + v[b][1]) / 2, (v[a][2] + v[b][2]) / 2}));
      return mid[key] = std::uint32_t(v.size() - 1);
    };
    std::vector<Hull::Triangle> next;
    for (const auto& tri : f) {
      const std::uint32_t a = midpoint(tri[0], tri[1]), b = midpoint(tri[1], tri[2]), c = midpoint(tri[2], tri[0]);
      next.insert(next.end(), {{tri[0], a, c}, {tri[1], b, a}, {tri[2], c, b}, {a, b, c}});
    }
    f.swap(next);
  }
  Mesh m;
  for (const auto& p : v)
    m.vertices.push_back(centre + btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])) * radius_m);
  m.triangles = f;
  return m;
}

namespace {

/// Joins consecutive stations' rings (the same number of points each, from
/// the stern's ring to the bow's) by side panels, and caps the two ends
/// with fans around their centroids.
void closeRings(Mesh& m, const std::vector<std::vector<std::uint32_t>>& rings) {
  const auto n = std::uint32_t(rings[0].size());
  const std::size_t stations = rings.size() - 1;
  // Side panels between consecutive stations.
  for (std::size_t s = 0; s < stations; ++s)
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t a = rings[s][k], b = rings[s][(k + 1) % n], c = rings[s + 1][(k + 1) % n],
                          d = rings[s + 1][k];
      m.triangles.push_back({a, b, c});
      m.triangles.push_back({a, c, d});
    }
  // Transom and bow caps: fans around their centroids.
  for (int end = 0; end < 2; ++end) {
    const auto& ring = rings[end == 0 ? 0 : stations];
    btVector3 c(0, 0, 0);
    for (auto i : ring) c += m.vertices[i];
    m.vertices.push_back(c / btScalar(ring.size()));
    const auto centre = std::uint32_t(m.vertices.size() - 1);
    for (std::uint32_t k = 0; k < n; ++k) {
      if (end == 0)
        m.triangles.push_back({centre, ring[(k + 1) % n], ring[k]});
      else
        m.triangles.push_back({centre, ring[k], ring[(k + 1) % n]});
    }
  }
}

}  // namespace

Mesh boatHull(btScalar length_m, btScalar beam_m, btScalar depth_m, int stations, int perSide) {
  // Stations along x from the transom (x = -L/2) to the bow (x = +L/2). Each
  // station is a closed polygon in (z, y): deck edge, chine, keel, chine, deck
  // edge; the half-beam narrows to zero at the bow and the keel rises there.
  Mesh m;
  std::vector<std::vector<std::uint32_t>> rings;
  for (int s = 0; s <= stations; ++s) {
    const double xi = double(s) / stations;  // 0 at the transom, 1 at the bow
    const double x = (xi - 0.5) * double(length_m);
    const double width = xi < 0.6 ? 1.0 : std::sqrt(std::max(0.0, 1.0 - std::pow((xi - 0.6) / 0.4, 2)));
    const double halfBeam = 0.5 * double(beam_m) * std::max(width, 0.02);
    const double keel = -0.5 * double(depth_m) + (xi > 0.7 ? 0.6 * double(depth_m) * std::pow((xi - 0.7) / 0.3, 2) : 0);
    const double deck = 0.5 * double(depth_m);
    std::vector<std::uint32_t> ring;
    // Starboard (z > 0) from deck to keel, then port from keel to deck.
    for (int k = 0; k < 2 * perSide - 1; ++k) {
      const bool starboard = k < perSide;
      const int q = starboard ? k : 2 * perSide - 2 - k;  // 0 deck .. perSide-1 keel
      const double f = double(q) / (perSide - 1);
      const double y = deck + (keel - deck) * f;
      const double z = halfBeam * std::sqrt(std::max(0.0, 1.0 - f * f * f));
      m.vertices.emplace_back(btScalar(x), btScalar(y), btScalar(starboard ? z : -z));
      ring.push_back(std::uint32_t(m.vertices.size() - 1));
    }
    rings.push_back(ring);
  }
  closeRings(m, rings);
  return m;
}

Mesh wigley(btScalar length_m, btScalar beam_m, btScalar draft_m, btScalar freeboard_m, int stations, int waterlines) {
  const double L = double(length_m), B = double(beam_m), T = double(draft_m);
  Mesh m;
  const int rows = waterlines + 2;  // waterlines from the keel up to the waterline, then the deck
  auto height = [&](int j) { return j <= waterlines ? -T + T * double(j) / waterlines : double(freeboard_m); };
  auto halfBeam = [&](double x, int j) {
    const double d = std::max(0.0, -height(j)) / T;
    return 0.5 * B * (1 - std::pow(2 * x / L, 2)) * (1 - d * d);
  };
  // Vertices: each station's starboard then port points.
  for (int i = 0; i <= stations; ++i) {
    const double x = -L / 2 + L * double(i) / stations;
    for (int side : {1, -1})
      for (int j = 0; j < rows; ++j)
        m.vertices.emplace_back(btScalar(x), btScalar(height(j)), btScalar(side * halfBeam(x, j)));
  }
  auto index = [&](int i, int side, int j) { return std::uint32_t((i * 2 + (side > 0 ? 0 : 1)) * rows + j); };
  auto quad = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c,
                  std::uint32_t d) {  // a b c d clockwise from outside
    m.triangles.push_back({a, c, b});
    m.triangles.push_back({a, d, c});
  };
  for (int i = 0; i < stations; ++i) {
    for (int j = 0; j + 1 < rows; ++j) {
      quad(index(i, 1, j), index(i, 1, j + 1), index(i + 1, 1, j + 1), index(i + 1, 1, j));      // starboard (+z)
      quad(index(i, -1, j), index(i + 1, -1, j), index(i + 1, -1, j + 1), index(i, -1, j + 1));  // port (-z)
    }
    quad(index(i, 1, rows - 1), index(i, -1, rows - 1), index(i + 1, -1, rows - 1), index(i + 1, 1, rows - 1));  // deck
    quad(index(i, 1, 0), index(i + 1, 1, 0), index(i + 1, -1, 0), index(i, -1, 0));  // keel (zero width: dropped)
  }
  return m;  // the ends have zero width: their points weld
}

std::unique_ptr<btTriangleMesh> toBullet(const Mesh& mesh) {
  auto out = std::make_unique<btTriangleMesh>(true, false);
  for (const auto& t : mesh.triangles)
    out->addTriangle(mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]], false);
  return out;
}

std::shared_ptr<const Hull> hullOf(const Mesh& mesh) {
  return std::make_shared<const Hull>(mesh.vertices, mesh.triangles);
}

World::World(const btVector3& gravity) { world.setGravity(gravity); }

World::~World() {
  for (auto& b : bodies) world.removeRigidBody(b.get());
}

btRigidBody* World::addBox(const btVector3& size, btScalar mass_kg, const btTransform& origin) {
  shapes.push_back(std::make_unique<btBoxShape>(size * btScalar(0.5)));
  btVector3 inertia(0, 0, 0);
  if (mass_kg > 0) shapes.back()->calculateLocalInertia(mass_kg, inertia);
  btRigidBody::btRigidBodyConstructionInfo info(mass_kg, nullptr, shapes.back().get(), inertia);
  info.m_startWorldTransform = origin;
  bodies.push_back(std::make_unique<btRigidBody>(info));
  world.addRigidBody(bodies.back().get());
  return bodies.back().get();
}

}  // namespace keel::test

namespace keel::test {

HydrostaticResult hydrostaticsAt(const Hull& hull, const btTransform& com, const WaterSurface& surface,
                                 btScalar density_kgpm3, double t_s, CutBuffers* cut) {
  const std::size_t n = hull.vertices().size();
  std::vector<btVector3> r(n);
  std::vector<btScalar> water(n), h(n), u(n), v(n);
  WaterFrame frame;
  rotateVertices(com.getBasis(), hull.vertices(), r);
  reference::sampleDirect(surface, frame, com.getOrigin(), r, t_s, u, v, water);
  vertexHeights(r, com.getOrigin().dot(frame.up), frame.up, water, h);
  CutBuffers local;
  CutBuffers& out = cut ? *cut : local;
  out.reserve(hull.triangles().size());
  cutHull(r, h, hull, out);
  return integratePressure(out.pieces, density_kgpm3, kG, frame.up);
}

}  // namespace keel::test

namespace keel::test {

std::shared_ptr<const GerstnerSurface> gerstnerSea(double hs_m, double tp_s, std::size_t components, std::uint32_t seed,
                                                   double maxSteepness) {
  SeaStateSettings s;
  s.componentCount = components;
  s.seed = seed;
  s.gravity_mps2 = kG;
  const auto waves = sampleSeaState(WaveSpectrum::jonswap(hs_m, tp_s), s);
  GerstnerSettings g;
  g.steepness = std::min(maxSteepness, 0.9 * gerstnerSteepnessLimit(waves));
  return std::make_shared<GerstnerSurface>(waves, g);
}

void nodesOf(const WaterGrid& grid, std::vector<btScalar>& u, std::vector<btScalar>& v) {
  u.clear(), v.clear();
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) u.push_back(grid.u_m(i)), v.push_back(grid.v_m(j));
}

BodyWaterAxes bodyWaterAxes(const btQuaternion& rotation) {
  const btMatrix3x3 basis(rotation);
  BodyWaterAxes axes{};
  for (int k = 0; k < 3; ++k)
    axes.east[k] = basis.getRow(0)[k], axes.north[k] = basis.getRow(2)[k], axes.up[k] = basis.getRow(1)[k];
  return axes;
}

void reportFigure(const char* name, double measured, double expected) {
  const double relative = expected != 0 ? std::abs(measured - expected) / std::abs(expected) : std::abs(measured);
  std::printf("[  figure  ] %s: measured %.9g, expected %.9g, relative error %.3g\n", name, measured, expected,
              relative);
}

void reportValue(const char* name, double measured) { std::printf("[  figure  ] %s: %.9g\n", name, measured); }

}  // namespace keel::test
