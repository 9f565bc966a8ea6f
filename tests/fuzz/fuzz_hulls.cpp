// keel_fuzz hulls: random meshes through keel::Hull; each is built or
// refused with a HullError, never a crash, a hang or another exception.
#include "fuzz.hpp"
#include "test_hulls.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace keel::test::fuzz {
namespace {

/// A coordinate scale from 1e-20 m to 1e13 m, mostly boat-sized.
double scale(Random& r) { return integer(r, 0, 9) == 0 ? std::pow(10.0, uniform(r, -20, 13)) : uniform(r, 0.1, 20); }

/// A random mesh: a shape (box, sphere, boat, soup), perhaps several,
/// moved, scaled, with vertices broken or triangles dropped or doubled.
Mesh randomMesh(Random& r) {
  Mesh m;
  const int parts = integer(r, 1, 3);
  for (int p = 0; p < parts; ++p) {
    const btVector3 centre(btScalar(uniform(r, -2, 2)), btScalar(uniform(r, -2, 2)), btScalar(uniform(r, -2, 2)));
    Mesh part;
    switch (integer(r, 0, 3)) {
      case 0:
        part = box(btVector3(btScalar(uniform(r, 0.1, 3)), btScalar(uniform(r, 0.1, 3)), 1), integer(r, 1, 3), centre);
        break;
      case 1: part = icosphere(btScalar(uniform(r, 0.1, 2)), integer(r, 0, 2), centre); break;
      case 2: part = boatHull(btScalar(uniform(r, 2, 10)), 2, 1, integer(r, 3, 8), integer(r, 2, 4)); break;
      default:
        for (int k = 0; k < integer(r, 1, 30); ++k) {
          part.vertices.emplace_back(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)),
                                     btScalar(uniform(r, -1, 1)));
          if (part.vertices.size() >= 3)
            part.triangles.push_back({std::uint32_t(integer(r, 0, int(part.vertices.size()) - 1)),
                                      std::uint32_t(integer(r, 0, int(part.vertices.size()) - 1)),
                                      std::uint32_t(part.vertices.size() - 1)});
        }
    }
    const auto offset = std::uint32_t(m.vertices.size());
    m.vertices.insert(m.vertices.end(), part.vertices.begin(), part.vertices.end());
    for (auto t : part.triangles) m.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  }
  const double s = scale(r), shift = integer(r, 0, 4) == 0 ? std::pow(10.0, uniform(r, 0, 12)) : 0;
  for (btVector3& v : m.vertices) v = v * btScalar(s) + btVector3(btScalar(shift), 0, 0);
  switch (integer(r, 0, 9)) {
    case 0:
      m.vertices[std::size_t(integer(r, 0, int(m.vertices.size()) - 1))].setX(
          std::numeric_limits<btScalar>::quiet_NaN());
      break;
    case 1:
      if (!m.triangles.empty()) m.triangles.pop_back();
      break;
    case 2:
      if (!m.triangles.empty()) m.triangles.push_back(m.triangles.front());
      break;
    case 3:
      if (!m.triangles.empty()) std::swap(m.triangles.front()[0], m.triangles.front()[1]);
      break;
    default: break;
  }
  return m;
}

}  // namespace

int hulls(long count, std::uint64_t seed, long first) {
  Random r(seed);
  long built = 0, refused = 0, failed = 0;
  double slowest_s = 0;
  for (long i = 0; i < count; ++i) {
    const Mesh m = randomMesh(r);
    HullOptions options;
    if (integer(r, 0, 3) == 0) options.maxEdgeLength_m = btScalar(std::pow(10.0, uniform(r, -6, 2)));
    if (integer(r, 0, 3) == 0) options.weldTolerance = btScalar(uniform(r, 0, 1e-2));
    if (i < first) continue;  // the same random stream, built from hull `first` on
    if (i % 10000 == 0) std::fprintf(stderr, "hull %ld\n", i);
    const auto start = std::chrono::steady_clock::now();
    try {
      const Hull hull(m.vertices, m.triangles, options);
      ++built;
      if (!(std::isfinite(hull.volume_m3()) && hull.volume_m3() > 0)) {
        ++failed;
        std::printf("hull %ld: accepted with volume %g\n", i, double(hull.volume_m3()));
      }
    } catch (const HullError&) {
      ++refused;
    } catch (const std::exception& e) {
      ++failed;
      std::printf("hull %ld: %s\n", i, e.what());
    }
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (took_s > 1) std::printf("hull %ld (seed %llu): %.1f s\n", i, static_cast<unsigned long long>(seed), took_s);
    slowest_s = std::max(slowest_s, took_s);
  }
  std::printf("hulls: %ld built, %ld refused with a HullError, slowest %.3f s\n", built, refused, slowest_s);
  std::printf("%ld passed, %ld failed\n", count - failed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace keel::test::fuzz
